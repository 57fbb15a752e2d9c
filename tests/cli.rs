//! The `sudoku-judge` binary as users run it: real processes on real files,
//! asserting verdicts, messages, exit codes and the report formats.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use sudoku_judge::case;

#[path = "cli/containment.rs"]
mod containment;
#[path = "cli/hostile.rs"]
mod hostile;
#[path = "cli/languages.rs"]
mod languages;
#[path = "cli/practice.rs"]
mod practice;
#[path = "cli/programs.rs"]
mod programs;
#[path = "cli/sessions.rs"]
mod sessions;
#[path = "cli/toolchains.rs"]
mod toolchains;
use sudoku_judge::solver::mrv::count_solutions;

const EXAMPLE_IN: &str = r#"[["5","3",".",".","7",".",".",".","."],["6",".",".","1","9","5",".",".","."],[".","9","8",".",".",".",".","6","."],["8",".",".",".","6",".",".",".","3"],["4",".",".","8",".","3",".",".","1"],["7",".",".",".","2",".",".",".","6"],[".","6",".",".",".",".","2","8","."],[".",".",".","4","1","9",".",".","5"],[".",".",".",".","8",".",".","7","9"]]"#;
const EXAMPLE_OUT: &str = r#"[["5","3","4","6","7","8","9","1","2"],["6","7","2","1","9","5","3","4","8"],["1","9","8","3","4","2","5","6","7"],["8","5","9","7","6","1","4","2","3"],["4","2","6","8","5","3","7","9","1"],["7","1","3","9","2","4","8","5","6"],["9","6","1","5","3","7","2","8","4"],["2","8","7","4","1","9","6","3","5"],["3","4","5","2","8","6","1","7","9"]]"#;
/// LeetCode's example as an AcWing line, and its one solution.
const PUZZLE: &str = sudoku_judge::board::EXAMPLE;
const ANSWER: &str = sudoku_judge::board::EXAMPLE_ANSWER;

/// No run in these tests takes long; one that does is a hang, and fails
/// the test instead of stalling the suite.
const HANG_GUARD: Duration = Duration::from_secs(180);

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Builds the C fixture `name` of `tests/fixtures/FIXTURES` with the
/// system's `cc`, outside the judge, into `dir`.
fn build_c(fixtures: &str, name: &str, dir: &Path) -> PathBuf {
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
fn shipped(dir: &str) -> usize {
    case::discover(&[manifest_dir().join("cases").join(dir)])
        .unwrap()
        .len()
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

/// Runs the binary in `dir` with `stdin`, killing it at [`HANG_GUARD`].
fn run_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
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

fn run(args: &[&str]) -> Run {
    run_in(&manifest_dir(), args, "")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    path
}

/// A suite directory with the LeetCode example as flat pair `a.in`/`a.out`.
fn example_suite() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", EXAMPLE_IN);
    write(dir.path(), "a.out", EXAMPLE_OUT);
    dir
}

fn cases_of(report: &Value) -> &Vec<Value> {
    report["cases"].as_array().expect("a cases array")
}

fn verdicts(report: &Value) -> Vec<(String, String)> {
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

fn sound_solvers() -> Vec<String> {
    let listing = run(&["solvers"]);
    assert_eq!(listing.code, 0, "{}", listing.stderr);
    listing
        .stdout
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

#[test]
fn the_shipped_cases_are_all_accepted() {
    let run = run(&["test", "--format", "json"]);
    let report = run.json();
    let found = case::discover(&[manifest_dir().join("cases")]).unwrap();
    assert_eq!(cases_of(&report).len(), found.len());
    for (id, verdict) in verdicts(&report) {
        assert_eq!(verdict, "AC", "{id}");
    }
    assert_eq!(run.code, 0);
}

#[test]
fn the_table_lists_each_case_and_sums_up() {
    let run = run(&["test", "cases/leetcode37"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with(&format!(
            "judging {} cases with solver propagate\n",
            shipped("leetcode37")
        )),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .contains("           time %limit       cpu      wall   memory  case\n"));
    let example = run
        .stdout
        .lines()
        .find(|l| l.contains("  example1  "))
        .expect("a row for example1");
    assert!(example.starts_with("AC "), "{example}");
    assert!(example.ends_with("  example1  1 puzzle"), "{example}");
    assert!(run.stdout.trim_end().ends_with(&format!(
        "LeetCode would say: Accepted, {0} / {0} testcases passed\n{0} passed, 0 failed",
        shipped("leetcode37")
    )));
}

#[test]
fn the_interface_note_comes_from_judge_toml_once_per_problem() {
    // The built-in solver is a function; cases/acwing166's judge.toml says
    // the problem judges programs.
    let run = run(&["test", "cases/acwing166"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let note = "note: acwing166 judges a program reading stdin; this submission is a function, \
                called through sudoku-judge's driver\n";
    assert_eq!(run.stdout.matches(note).count(), 1, "{}", run.stdout);
    assert!(
        run.stdout.starts_with(&format!(
            "judging {} cases with solver propagate\n{note}",
            shipped("acwing166")
        )),
        "{}",
        run.stdout
    );
    // A program on LeetCode cases.
    let command = format!("{} solve", env!("CARGO_BIN_EXE_sudoku-judge"));
    let run = judge_with(&["test", "cases/leetcode37", "--cmd", &command]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout
            .matches("note: LeetCode 37 calls a class Solution's solveSudoku; this submission is a program")
            .count(),
        1,
        "{}",
        run.stdout
    );
}

#[test]
fn the_summary_says_what_the_real_judge_would() {
    let dir = tempfile::tempdir().unwrap();
    // A solved board (nothing for the faulty solver to leave blank) and
    // two puzzles it gets wrong.
    write(dir.path(), "cases/a.in", &format!("{ANSWER}\nend\n"));
    for name in ["b", "c"] {
        write(
            dir.path(),
            &format!("cases/{name}.in"),
            &format!("{PUZZLE}\nend\n"),
        );
    }
    let judge = |toml: Option<&str>| {
        if let Some(toml) = toml {
            write(dir.path(), "cases/judge.toml", toml);
        }
        let run = run_in(dir.path(), &["test", "--solver", "faulty-leaves-blank"], "");
        assert_eq!(run.code, 1, "{}", run.stderr);
        let lines: Vec<String> = run.stdout.lines().rev().take(2).map(String::from).collect();
        (lines[1].clone(), lines[0].clone())
    };
    let (says, last) = judge(None);
    assert!(says.starts_with("3 cases in "), "no judge is known: {says}");
    assert_eq!(last, "1 passed, 2 failed");
    let (says, _) = judge(Some("problem = \"acwing166\"\n"));
    assert_eq!(says, "AcWing would say: Wrong Answer on test 2 of 3 (b)");
    let (says, _) = judge(Some("problem = \"leetcode37\"\n"));
    assert_eq!(
        says,
        "LeetCode would say: Wrong Answer on testcase 2 of 3 (b)"
    );
}

#[test]
fn colour_always_colours_the_grid_diff() {
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--solver",
        "faulty-wrong-digit",
        "--color",
        "always",
    ]);
    assert_eq!(run.code, 1);
    let row = run
        .stdout
        .lines()
        .find(|l| l.contains("6 *4 |") || l.contains("[9]"))
        .unwrap_or_else(|| panic!("no grid row:\n{}", run.stdout));
    assert!(row.contains("\u{1b}[1m\u{1b}[31m[9]\u{1b}[0m"), "{row:?}");
    assert!(row.contains("\u{1b}[1m*1 \u{1b}[0m"), "{row:?}");
}

/// Runs the binary on a terminal `columns` wide (a pty made by `script`)
/// and returns all it wrote there, escape sequences and all.
fn on_terminal(columns: u16, args: &[&str]) -> Option<String> {
    if !have(&["script", "stty"], "progress on a terminal") {
        return None;
    }
    let command = std::iter::once(env!("CARGO_BIN_EXE_sudoku-judge").to_string())
        .chain(args.iter().map(|a| a.to_string()))
        .map(|word| shell_words::quote(&word).into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let output = Command::new("script")
        .args([
            "-qec",
            &format!("stty rows 40 cols {columns}; {command}"),
            "/dev/null",
        ])
        .current_dir(manifest_dir())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Every drawing of a progress line that starts with `start`: what follows
/// a clear-line, up to the next control character.
fn drawings<'a>(screen: &'a str, start: &str) -> Vec<&'a str> {
    screen
        .split("\x1b[2K")
        .map(|rest| rest.split(['\r', '\n', '\x1b']).next().unwrap())
        .filter(|line| line.starts_with(start))
        .collect()
}

#[test]
fn stress_draws_its_bar_under_its_first_line_and_within_the_terminal() {
    let save = tempfile::tempdir().unwrap();
    let Some(screen) = on_terminal(
        80,
        &[
            "stress",
            "--solver",
            "faulty-leaves-blank",
            "--rounds",
            "3",
            "--save",
            save.path().to_str().unwrap(),
        ],
    ) else {
        return;
    };
    assert!(
        screen.starts_with("stress: solver faulty-leaves-blank against the reference solver"),
        "{screen:?}"
    );
    for line in drawings(&screen, "stress [") {
        assert!(line.chars().count() <= 77, "{line:?}");
        assert!(!line.contains("eta 0s"), "{line:?}");
    }
}

#[test]
fn the_progress_line_fits_the_terminal_and_never_precedes_the_header() {
    // Each case takes a moment, so the line is drawn between them.
    let slow = format!(
        "sh -c 'sleep 0.3; exec {} solve'",
        env!("CARGO_BIN_EXE_sudoku-judge")
    );
    let Some(screen) = on_terminal(80, &["test", "cases/acwing166/generated", "--cmd", &slow])
    else {
        return;
    };
    let cases = shipped("acwing166/generated");
    let header = screen
        .find(&format!("judging {cases} cases with"))
        .expect("the header");
    let first_bar = screen.find("judging [").expect("a progress line");
    assert!(header < first_bar, "the bar came first:\n{screen:?}");
    let drawn = drawings(&screen, "judging [");
    assert!(!drawn.is_empty(), "{screen:?}");
    for line in &drawn {
        // Short of the last columns, and not padded out to them: a `^C`
        // echoed after it stays on its line.
        assert!(line.chars().count() <= 77, "{line:?}");
        assert!(!line.ends_with(' '), "{line:?}");
        assert!(!line.contains("eta 0s"), "{line:?}");
    }
    assert!(
        screen.contains(&format!("{cases} passed, 0 failed")),
        "{screen:?}"
    );
}

#[test]
fn the_shipped_corpus_is_sound() {
    // Every input parses, every puzzle has exactly one solution, and every
    // expected answer solves its puzzle, so any valid answer is the expected one.
    let found = case::discover(&[manifest_dir().join("cases")]).unwrap();
    assert!(found.len() >= 10);
    for c in &found {
        let data = case::load(c, true).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(data.warnings.is_empty(), "{}: {:?}", c.id, data.warnings);
        let answers: Vec<_> = data
            .expected_boards()
            .unwrap()
            .expect("shipped cases have answers that parse as boards")
            .map(|b| b.unwrap().1)
            .collect();
        assert_eq!(answers.len(), data.puzzles, "{}", c.id);
        for (n, (puzzle, answer)) in data.puzzles().unwrap().zip(&answers).enumerate() {
            let puzzle = puzzle.unwrap().1;
            assert_eq!(
                count_solutions(&puzzle.to_bytes(), 2),
                1,
                "{} puzzle {}",
                c.id,
                n + 1
            );
            assert!(answer.solves(&puzzle), "{} puzzle {}", c.id, n + 1);
        }
    }
}

/// The solvers competitive programmers are judged by fail only by time:
/// never a wrong answer, a crash or a harness error. The fast ones pass all.
#[test]
fn every_builtin_solver_on_every_shipped_case() {
    for solver in sound_solvers() {
        let fast = matches!(solver.as_str(), "propagate" | "mrv" | "singles");
        let limit = if fast { "20s" } else { "1s" };
        let run = run(&[
            "test",
            "--solver",
            &solver,
            "--time-limit",
            limit,
            "--format",
            "json",
        ]);
        for (id, verdict) in verdicts(&run.json()) {
            if fast {
                assert_eq!(verdict, "AC", "{solver} on {id}");
            } else {
                assert!(
                    verdict == "AC" || verdict == "TLE",
                    "{solver} on {id}: {verdict}"
                );
            }
        }
        assert!(run.code <= 1, "{solver}: exit {}", run.code);
    }
}

#[test]
fn a_wrong_digit_is_wa_with_reason_and_grid_diff() {
    // The AcWing sample: r9c9 is blank, so the faulty solver's wrong digit
    // there breaks a row, a column and a box.
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--solver",
        "faulty-wrong-digit",
    ]);
    assert_eq!(run.code, 1);
    let out = &run.stdout;
    assert!(out.contains("\nWA "), "{out}");
    // A pipe gets whole lines: the row's reason is not cut.
    let row = out.lines().find(|l| l.starts_with("WA ")).unwrap();
    assert!(
        row.ends_with(
            "  sample  puzzle 1 (input line 1): row 9 has two 9s (r9c8 and r9c9); \
             column 9 has two 9s (r4c9 and r9c9); box 9 has two 9s (r9c8 and r9c9); puzzle 2 \
             (input line 2): row 9 has two 9s (r9c7 and r9c9); column 9 has two 9s (r1c9 and \
             r9c9); box 9 has two 9s (r9c7 and r9c9)"
        ),
        "{row}"
    );
    assert!(
        out.contains(
            "why:      puzzle 1 (input line 1): row 9 has two 9s (r9c8 and r9c9); \
             column 9 has two 9s (r4c9 and r9c9)"
        ),
        "the reason names the broken units and their cells:\n{out}"
    );
    // Expected beside the answer, the givens starred and only the wrong
    // cell bracketed: not r9c8 or r4c9, the right cells it clashes with.
    assert!(
        out.contains("|*1  6 *4 | 8  7  5 | 2  9  3 |   |*1  6 *4 | 8  7  5 | 2  9 [9]|"),
        "{out}"
    );
    assert!(
        out.contains("| 8 *2  5 | 4  3  7 | 1 *6  9 |   | 8 *2  5 | 4  3  7 | 1 *6  9 |"),
        "{out}"
    );
    assert!(
        out.contains("*5 is a given; [5] is where your answer differs from the expected one"),
        "{out}"
    );
    assert!(
        out.contains(
            "rerun:    sudoku-judge test cases/acwing166/sample.in --solver faulty-wrong-digit"
        ),
        "{out}"
    );
    assert!(out.trim_end().ends_with("0 passed, 1 failed"), "{out}");
}

#[test]
fn a_changed_given_is_wa_and_shown_against_the_puzzle_without_an_answer_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", EXAMPLE_IN);
    let run = run_in(
        dir.path(),
        &["test", ".", "--solver", "faulty-wrong-digit"],
        "",
    );
    assert_eq!(run.code, 1);
    let out = &run.stdout;
    assert!(
        out.contains("why:      the answer: r9c9 was given as 9, the answer has 1;"),
        "{out}"
    );
    assert!(
        out.contains("    puzzle                            your answer"),
        "{out}"
    );
    // The changed given is to blame, not the right 1 it clashes with.
    assert!(
        out.contains("| .  .  . | .  8  . | .  7  9 |   | 3  4  5 | 2 *8  6 | 1 *7 [1]|"),
        "{out}"
    );
}

#[test]
fn each_kind_of_wrong_answer_is_named() {
    let dir = example_suite();
    for (solver, reason) in [
        (
            "faulty-changes-given",
            "r1c1 was given as 5, the answer has 1",
        ),
        ("faulty-leaves-blank", "r1c3 is empty"),
    ] {
        let run = run_in(
            dir.path(),
            &["test", ".", "--solver", solver, "--format", "json"],
            "",
        );
        assert_eq!(run.code, 1, "{solver}");
        let report = run.json();
        let case = &cases_of(&report)[0];
        assert_eq!(case["verdict"], "WA", "{solver}");
        let message = case["message"].as_str().unwrap();
        assert!(message.contains(reason), "{solver}: {message}");
    }
}

#[test]
fn an_expected_file_that_does_not_match_its_input_is_a_case_error() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "three.in",
        &format!("{PUZZLE}\n{PUZZLE}\n{PUZZLE}\nend\n"),
    );
    write(dir.path(), "three.out", &format!("{ANSWER}\n{ANSWER}\n"));
    let run = run_in(dir.path(), &["test", "."], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stdout.contains("three.out has 2 answers for 3 puzzles"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_panic_is_re_with_the_panic_message() {
    let dir = example_suite();
    let run = run_in(
        dir.path(),
        &["test", ".", "--solver", "faulty-panic", "--format", "json"],
        "",
    );
    assert_eq!(run.code, 1);
    let report = run.json();
    let case = &cases_of(&report)[0];
    assert_eq!(case["verdict"], "RE");
    let message = case["message"].as_str().unwrap();
    assert!(message.starts_with("panicked at "), "{message}");
    assert!(message.contains("index out of bounds"), "{message}");
}

fn processes_running(needle: &str) -> Vec<String> {
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

#[test]
fn an_endless_loop_is_tle_killed_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["case1", "case2", "case3"] {
        write(dir.path(), &format!("{name}.in"), EXAMPLE_IN);
        write(dir.path(), &format!("{name}.out"), EXAMPLE_OUT);
    }
    let run = run_in(
        dir.path(),
        &[
            "test",
            ".",
            "--solver",
            "faulty-loop",
            "--time-limit",
            "150ms",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(run.code, 1);
    let report = run.json();
    assert_eq!(
        verdicts(&report),
        [
            ("case1".into(), "TLE".into()),
            ("case2".into(), "TLE".into()),
            ("case3".into(), "TLE".into())
        ]
    );
    let message = cases_of(&report)[0]["message"].as_str().unwrap();
    assert!(message.contains("over the 150 ms limit"), "{message}");
    // Killed, with its whole process group, before the judge moved on.
    let left = processes_running("worker --solver faulty-loop");
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_malformed_case_names_file_line_and_column_and_the_others_are_judged() {
    let run = run(&["test", "tests/fixtures/malformed", "--format", "json"]);
    assert_eq!(run.code, 2, "a case that cannot be judged exits 2");
    let report = run.json();
    let by_id = |id: &str| {
        cases_of(&report)
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no case {id}"))
            .clone()
    };
    assert_eq!(by_id("good")["verdict"], "AC");
    for (id, location, words) in [
        (
            "bad-character",
            "bad-character.in:2:5:",
            "'x' is not a cell",
        ),
        ("short-line", "short-line.in:1:80:", "the line has 79 cells"),
        (
            "conflicting-givens",
            "conflicting-givens.in:1:2:",
            "row 1 has two 5s (r1c1 and r1c2)",
        ),
        ("eight-rows", "eight-rows.in:1:", "the board has 8 rows"),
    ] {
        let case = by_id(id);
        assert!(case["verdict"].is_null(), "{id}");
        let error = case["error"].as_str().unwrap();
        assert!(
            error.starts_with("tests/fixtures/malformed/") && error.contains(location),
            "{id}: {error}"
        );
        assert!(error.contains(words), "{id}: {error}");
    }
    assert_eq!(report["errors"], 4);
    assert_eq!(report["passed"], 1);
}

#[test]
fn the_table_shows_a_harness_error_with_a_hint() {
    let run = run(&["test", "tests/fixtures/malformed/bad-character.in"]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("ERROR"), "{}", run.stdout);
    assert!(run.stdout.contains("hint:     fix the case files; `sudoku-judge test tests/fixtures/malformed/bad-character.in` rechecks this case alone"));
}

/// A program the kernel refuses to run fails at its exec, after the
/// judge has started feeding it: every case still says why, and the judge
/// goes on to the next.
#[test]
fn a_program_the_kernel_cannot_run_is_an_error_naming_why_for_every_case() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "cases/a.in", &format!("{PUZZLE}\nend\n"));
    write(dir.path(), "cases/b.in", &format!("{PUZZLE}\nend\n"));
    let program = write(dir.path(), "not-a-program", "\x7fELF and nothing else");
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    let run = run_in(
        dir.path(),
        &[
            "test",
            "--cmd",
            "./not-a-program",
            "--color",
            "never",
            "cases",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    for case in ["a", "b"] {
        assert!(
            run.stdout.contains(&format!("ERROR {case}\n")),
            "{}",
            run.stdout
        );
    }
    assert_eq!(
        run.stdout
            .matches("failed to run `./not-a-program`: Exec format error")
            .count(),
        4,
        "each case, in the table and in the failures: {}",
        run.stdout
    );
    // The program's fault, not the judge's: no rerun will mend it.
    assert!(!run.stdout.contains("the judge failed"), "{}", run.stdout);
    assert_eq!(
        run.stdout
            .matches("hint:     the program could not be started: build it for this machine")
            .count(),
        2,
        "{}",
        run.stdout
    );
}

#[test]
fn cases_run_in_natural_order_and_hidden_and_backup_files_are_skipped() {
    let run = run(&["test", "tests/fixtures/order", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let ids: Vec<String> = verdicts(&run.json())
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(ids, ["case1", "case2", "case10"]);
}

#[test]
fn both_layouts_crlf_a_bom_and_a_missing_expected_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A case directory with input.txt/expected.txt, CRLF and a BOM.
    let crlf = |s: &str| format!("\u{feff}{}", s.replace('\n', "\r\n"));
    let grid: String = PUZZLE
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect();
    write(root, "suite/dir-case/input.txt", &crlf(&grid));
    let answer_grid: String = ANSWER
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect();
    write(root, "suite/dir-case/expected.txt", &crlf(&answer_grid));
    // A case directory using in/out names.
    write(root, "suite/short-names/in", &format!("{PUZZLE}\nend\n"));
    write(root, "suite/short-names/out", &format!("{ANSWER}\n"));
    // A flat pair with .ans.
    write(root, "suite/flat.in", EXAMPLE_IN);
    write(root, "suite/flat.ans", EXAMPLE_OUT);
    // No expected file: the rules alone judge it.
    write(root, "suite/no-answer.in", &format!("{PUZZLE}\nend\n"));
    let run = run_in(root, &["test", "suite", "--format", "json"], "");
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report = run.json();
    assert_eq!(
        verdicts(&report),
        [
            ("dir-case".into(), "AC".into()),
            ("flat".into(), "AC".into()),
            ("no-answer".into(), "AC".into()),
            ("short-names".into(), "AC".into())
        ]
    );
    let formats: Vec<&str> = cases_of(&report)
        .iter()
        .map(|c| c["format"].as_str().unwrap())
        .collect();
    assert_eq!(formats, ["grid", "leetcode", "acwing", "acwing"]);
    assert!(cases_of(&report)[2]["expected_path"].is_null());

    // The exact checker needs an expected file, and says so.
    let exact = run_in(
        root,
        &["test", "suite/no-answer.in", "--checker", "exact"],
        "",
    );
    assert_eq!(exact.code, 2);
    assert!(
        exact
            .stdout
            .contains("the exact checker needs an expected output"),
        "{}",
        exact.stdout
    );
}

#[test]
fn judge_toml_sets_suite_defaults_and_flags_override_it() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "suite/judge.toml",
        "time_limit = \"1500ms\"\nmemory_limit = \"128M\"\n",
    );
    write(dir.path(), "suite/a.in", EXAMPLE_IN);
    let limits = |args: &[&str]| {
        let run = run_in(dir.path(), args, "");
        assert_eq!(run.code, 0, "{}", run.stdout);
        let case = cases_of(&run.json())[0].clone();
        (
            case["time_limit_ms"].as_f64().unwrap(),
            case["memory_limit_kb"].as_u64().unwrap(),
        )
    };
    assert_eq!(
        limits(&["test", "suite", "--format", "json"]),
        (1500.0, 131072)
    );
    assert_eq!(
        limits(&[
            "test",
            "suite",
            "--format",
            "json",
            "--time-limit",
            "2s",
            "--memory-limit",
            "64M"
        ]),
        (2000.0, 65536)
    );

    write(dir.path(), "bad/judge.toml", "time_limt = \"1s\"\n");
    write(dir.path(), "bad/a.in", EXAMPLE_IN);
    let run = run_in(dir.path(), &["test", "bad"], "");
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("judge.toml"), "{}", run.stdout);
    assert!(run.stdout.contains("time_limt"), "{}", run.stdout);
}

#[test]
fn the_json_report_has_the_documented_fields() {
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--format",
        "json",
        "--repeat",
        "3",
    ]);
    assert_eq!(run.code, 0);
    let report = run.json();
    for key in [
        "passed",
        "failed",
        "errors",
        "total",
        "elapsed_ms",
        "baseline",
    ] {
        assert!(report.get(key).is_some(), "missing {key}");
    }
    let case = &cases_of(&report)[0];
    for key in [
        "id",
        "path",
        "expected_path",
        "verdict",
        "message",
        "details",
        "time_ms",
        "time_limit_ms",
        "limit_percent",
        "runs_ms",
        "puzzles",
        "puzzle_ms",
        "slowest_puzzle",
        "wall_ms",
        "cpu_ms",
        "memory_kb",
        "memory_limit_kb",
        "format",
        "checker",
        "warnings",
        "error",
        "baseline",
    ] {
        assert!(case.get(key).is_some(), "missing {key}");
    }
    let slowest = &case["slowest_puzzle"];
    assert!(
        matches!(slowest["puzzle"].as_u64(), Some(1 | 2)) && slowest["line"] == slowest["puzzle"],
        "one of the two puzzles, each on its own line: {slowest}"
    );
    assert_eq!(case["puzzles"], 2);
    assert_eq!(case["runs_ms"].as_array().unwrap().len(), 3);
    assert_eq!(case["time_limit_ms"], 1000.0, "from the suite's judge.toml");
    assert_eq!(case["memory_limit_kb"], 65536, "AcWing 166's 64 MB");
    assert!(
        case["memory_kb"].as_u64().unwrap() > 0,
        "peak memory is measured"
    );
}

#[test]
fn solvers_are_listed_name_first_with_the_default_first() {
    let listing = run(&["solvers"]);
    assert_eq!(listing.code, 0);
    let names = sound_solvers();
    for expected in ["propagate", "mrv", "singles", "bitmask", "backtrack"] {
        assert!(names.iter().any(|n| n == expected), "{names:?}");
    }
    assert!(
        !listing.stdout.contains("faulty"),
        "faulty solvers hide by default"
    );
    let all = run(&["solvers", "--all"]);
    for faulty in ["faulty-wrong-digit", "faulty-panic", "faulty-loop"] {
        assert!(all.stdout.contains(faulty), "{}", all.stdout);
    }
    let unknown = run(&["test", "--solver", "nope"]);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("unknown solver `nope`"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn solve_reads_acwing_input_and_prints_one_line_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(
        dir.path(),
        &["solve"],
        &format!("{PUZZLE}\n{}\nend\n", PUZZLE.replace('.', "0")),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, format!("{ANSWER}\n{ANSWER}\n"));

    let literal = run_in(dir.path(), &["solve", "--solver", "singles"], EXAMPLE_IN);
    assert_eq!(literal.code, 0, "{}", literal.stderr);
    assert_eq!(literal.stdout.trim_end(), EXAMPLE_OUT);

    let bad = run_in(dir.path(), &["solve"], "12x\nend\n");
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("stdin:1:"), "{}", bad.stderr);
}

#[test]
fn help_explains_the_layouts_and_exit_codes() {
    let help = run(&["test", "--help"]);
    assert_eq!(help.code, 0);
    for words in [
        "NAME.in",
        "judge.toml",
        "Exit code",
        "--time-limit",
        "--checker",
        "--follow-outside-links",
    ] {
        assert!(
            help.stdout.contains(words),
            "missing {words}:\n{}",
            help.stdout
        );
    }
    let missing = run(&["test", "no/such/dir"]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("no/such/dir"), "{}", missing.stderr);
}

// ---------------------------------------------------------------------------
// Submissions: programs and LeetCode-style files in C++, Rust, Python, Java.
// ---------------------------------------------------------------------------

#[test]
fn answers_past_the_last_puzzle_are_never_counted_as_more_puzzles_than_there_are() {
    // Three answers for the two puzzles, then a crash: what was printed is
    // said as it is, never "3 of 2 puzzles answered".
    let command = format!("sh -c 'echo {ANSWER}; echo {ANSWER}; echo {ANSWER}; exit 3'");
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--cmd",
        &command,
        "--format",
        "json",
    ]);
    let (verdict, message) = only_verdict(&run.json());
    assert_eq!(verdict, "RE");
    assert_eq!(
        message,
        "exited with code 3; printed 3 answer lines for 2 puzzles, so it went on past the last one"
    );
}

/// One build cache for the tests, under `target/`, so each fixture is
/// compiled once and nothing lands in the user's own cache.
fn build_cache() -> PathBuf {
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

/// Says that `test` checked nothing, and why, where it shows: straight to
/// stderr, which the test harness does not capture (it captures only the
/// print macros), so the line appears under `make test` whether the test
/// passes or not.
fn skip(test: &str, why: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIP {test}: {why}");
}

/// Whether the tools a language needs are here; prints a visible skip line
/// when they are not, so a missing toolchain never passes silently.
fn have(tools: &[&str], test: &str) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| which::which(t).is_err())
        .collect();
    if !missing.is_empty() {
        skip(test, &format!("{} not installed", missing.join(", ")));
    }
    missing.is_empty()
}

fn judge_with(args: &[&str]) -> Run {
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
fn judge_fixture(file: &str, cases: &str, extra: &[&str]) -> (Run, Value) {
    judge_fixture_path(&format!("tests/fixtures/submissions/{file}"), cases, extra)
}

/// [`judge_fixture`] for a submission anywhere.
fn judge_fixture_path(path: &str, cases: &str, extra: &[&str]) -> (Run, Value) {
    let mut args = vec!["test", cases, "--submission", path, "--format", "json"];
    args.extend_from_slice(extra);
    let run = judge_with(&args);
    let report = run.json();
    (run, report)
}

fn only_verdict(report: &Value) -> (String, String) {
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

#[test]
fn leetcode_style_files_are_accepted_in_every_language() {
    for (file, tools) in [
        ("ac_leetcode.cpp", &["g++"][..]),
        ("ac_leetcode.rs", &["rustc"][..]),
        ("ac_leetcode.py", &["python3"][..]),
        ("ac_leetcode.java", &["javac", "java"][..]),
    ] {
        if !have(tools, file) {
            continue;
        }
        // Every shipped format reaches the function as a board.
        for cases in ["cases/leetcode37", "cases/acwing166/hard.in"] {
            let (run, report) = judge_fixture(file, cases, &["--time-limit", "5s"]);
            assert_eq!(
                only_verdict(&report).0,
                "AC",
                "{file} on {cases}: {}",
                run.stdout
            );
            assert_eq!(run.code, 0, "{file}");
            assert_eq!(report["build"]["interface"], "leetcode", "{file}");
            for case in cases_of(&report) {
                assert!(case["memory_kb"].as_u64().unwrap() > 0, "{file}");
                assert!(case["cpu_ms"].as_f64().unwrap() > 0.0, "{file}");
            }
        }
    }
}

/// A LeetCode file as kept locally, with a harness that solves and prints
/// LeetCode's example: on LeetCode's problem the class is judged through
/// the driver, the harness left out; elsewhere the file is a program.
#[test]
fn a_leetcode_file_with_a_local_harness_is_judged_as_leetcode_reads_it() {
    for (file, tools, note) in [
        (
            "ac_leetcode_with_main.py",
            &["python3"][..],
            "block, a local test harness, is not run",
        ),
        (
            "ac_leetcode_marked.py",
            &["python3"][..],
            "between `@lc code=start` and `@lc code=end`",
        ),
        (
            "ac_leetcode_with_main.cpp",
            &["g++"][..],
            "its own main (lines 49–60), a local test harness, is left out",
        ),
        (
            "ac_leetcode_marked.cpp",
            &["g++"][..],
            "between `@lc code=start` and `@lc code=end`",
        ),
    ] {
        if !have(tools, file) {
            continue;
        }
        let path = format!("tests/fixtures/submissions/{file}");
        let run = judge_with(&["test", "cases/leetcode37", "--submission", &path]);
        assert_eq!(run.code, 0, "{file}:\n{}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("LeetCode-style"),
            "{file}:\n{}",
            run.stdout
        );
        assert!(run.stdout.contains(note), "{file}:\n{}", run.stdout);
        if file.ends_with("with_main.cpp") {
            assert!(
                run.stdout
                    .contains("pasted whole, LeetCode would say Compile Error"),
                "{file}:\n{}",
                run.stdout
            );
        }
        // On AcWing's problem it is a program, which prints LeetCode's
        // example whatever it is given, and the note says how else to read it.
        let run = judge_with(&["test", "cases/acwing166/sample.in", "--submission", &path]);
        assert_eq!(run.code, 1, "{file}:\n{}{}", run.stdout, run.stderr);
        if file.contains("with_main") {
            assert!(
                run.stdout.contains("--interface leetcode"),
                "{file}:\n{}",
                run.stdout
            );
        }
        // --interface chooses either reading, whatever the problem.
        let (_, report) = judge_fixture(
            file,
            "cases/leetcode37/example1",
            &["--problem", "acwing166", "--interface", "leetcode"],
        );
        assert_eq!(only_verdict(&report).0, "AC", "{file}: {report}");
        let (_, report) = judge_fixture(
            file,
            "cases/leetcode37/one-blank",
            &["--interface", "program"],
        );
        assert_eq!(only_verdict(&report).0, "WA", "{file}: {report}");
    }
}

/// POJ builds C++ with an old G++: a program of that era, with `gets` and
/// a global named `size`, is accepted there and a compile error in C++17.
#[test]
fn a_poj_era_program_is_built_as_poj_builds_it_under_poj3074() {
    if !have(&["g++"], "POJ's compiler profile") {
        return;
    }
    let path = "tests/fixtures/submissions/ac_poj_gets.cpp";
    let run = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--submission",
        path,
        "--problem",
        "poj3074",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let build = run
        .stdout
        .lines()
        .find(|l| l.contains("g++ "))
        .unwrap_or_else(|| panic!("no build line:\n{}", run.stdout));
    assert!(
        build.contains("g++ -O2 -std=gnu++98 -DONLINE_JUDGE"),
        "{build}"
    );
    assert!(
        run.stdout
            .contains("built for poj3074 with -O2 -std=gnu++98 -DONLINE_JUDGE"),
        "{}",
        run.stdout
    );
    let (_, report) = judge_fixture(
        "ac_poj_gets.cpp",
        "cases/acwing166/sample.in",
        &["--problem", "acwing166"],
    );
    assert_eq!(only_verdict(&report).0, "CE", "{report}");
}

#[test]
fn debug_output_of_a_leetcode_file_is_kept_apart_from_its_answers() {
    if !have(&["python3"], "debug output") {
        return;
    }
    let (run, report) = judge_fixture("ac_leetcode.py", "cases/acwing166/sample.in", &[]);
    assert_eq!(only_verdict(&report).0, "AC", "{}", run.stdout);
    let stdout = cases_of(&report)[0]["stdout"].as_str().unwrap();
    assert_eq!(
        stdout.lines().count(),
        2,
        "one debug line per board: {stdout:?}"
    );
    assert!(stdout.starts_with("solving, blanks:"), "{stdout:?}");
    let table = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--submission",
        "tests/fixtures/submissions/ac_leetcode.py",
    ]);
    assert!(
        table.stdout.contains("printed 2 lines of its own"),
        "{}",
        table.stdout
    );
}

#[test]
fn programs_are_accepted_in_every_language_and_any_case_format() {
    for (file, tools) in [
        ("ac_program.cpp", &["g++"][..]),
        ("ac_program.rs", &["rustc"][..]),
        ("ac_program.py", &["python3"][..]),
        ("ac_program.java", &["javac", "java"][..]),
    ] {
        if !have(tools, file) {
            continue;
        }
        for cases in ["cases/acwing166/sample.in", "cases/leetcode37"] {
            let (run, report) = judge_fixture(file, cases, &["--time-limit", "5s"]);
            assert_eq!(
                only_verdict(&report).0,
                "AC",
                "{file} on {cases}: {}",
                run.stdout
            );
            assert_eq!(report["build"]["interface"], "program", "{file}");
        }
    }
}

#[test]
fn failing_programs_get_their_verdicts() {
    if !have(&["g++"], "failing C++ programs") {
        return;
    }
    let sample = "cases/acwing166/sample.in";
    for (file, verdict, words) in [
        (
            "wa_wrong_digit.cpp",
            "WA",
            "row 9 has two 4s (r9c3 and r9c9)",
        ),
        (
            "pe_grid.cpp",
            "PE",
            "the answers are right but printed in grid format; they should be in acwing format",
        ),
        ("tle_endless_loop.cpp", "TLE", "over the 1000 ms limit"),
        (
            "re_segfault.cpp",
            "RE",
            "killed by SIGSEGV (segmentation fault",
        ),
        ("re_stack_overflow.cpp", "RE", "killed by SIGSEGV"),
        ("mle_allocate.cpp", "MLE", "over the 64.0 MB limit"),
        ("ole_flood.cpp", "OLE", "the output limit"),
        ("ac_never_reads_floods_stderr.cpp", "AC", ""),
    ] {
        let (run, report) = judge_fixture(file, sample, &["--problem", "acwing166"]);
        let (got, message) = only_verdict(&report);
        assert_eq!(got, verdict, "{file}: {message}\n{}", run.stdout);
        assert!(message.contains(words), "{file}: {message}");
        let case = &cases_of(&report)[0];
        assert_eq!(case["memory_limit_kb"], 65536, "{file}");
        if verdict == "MLE" {
            // Stopped near the limit, not left to eat the machine.
            assert!(case["memory_kb"].as_u64().unwrap() < 1024 * 1024, "{case}");
        }
    }
}

#[test]
fn python_programs_that_sleep_or_fail_get_their_verdicts() {
    if !have(&["python3"], "failing Python programs") {
        return;
    }
    let (_, report) = judge_fixture("tle_sleeps.py", "cases/acwing166/sample.in", &[]);
    let (verdict, message) = only_verdict(&report);
    assert_eq!(verdict, "TLE");
    assert!(message.contains("of wall time"), "{message}");

    let (_, report) = judge_fixture("re_exit_code.py", "cases/acwing166/sample.in", &[]);
    let (verdict, message) = only_verdict(&report);
    assert_eq!(verdict, "RE");
    assert!(message.starts_with("exited with code 3"), "{message}");
    let details = cases_of(&report)[0]["details"].as_str().unwrap();
    assert!(details.contains("something went wrong"), "{details}");
}

#[test]
fn a_crashing_leetcode_file_is_re_with_the_cause() {
    for (file, tools, words) in [
        (
            "re_panic.rs",
            &["rustc"][..],
            "panicked at re_panic.rs:6:14: index out of bounds",
        ),
        (
            "re_exception.java",
            &["javac", "java"][..],
            "threw java.lang.IllegalStateException: board is unsolvable?",
        ),
    ] {
        if !have(tools, file) {
            continue;
        }
        let (_, report) = judge_fixture(file, "cases/leetcode37/example1", &[]);
        let (verdict, message) = only_verdict(&report);
        assert_eq!(verdict, "RE", "{file}");
        assert!(message.contains(words), "{file}: {message}");
    }
}

#[test]
fn a_leetcode_board_stopped_part_way_is_charged_the_cpu_it_used() {
    if !have(&["python3"], "charging a board stopped part way") {
        return;
    }
    for (file, verdict, extra) in [
        (
            "tle_sleeps_then_spins.py",
            "TLE",
            &["--time-limit", "500ms"][..],
        ),
        (
            "mle_spins_then_allocates.py",
            "MLE",
            &["--memory-limit", "64M"][..],
        ),
        ("re_spins_then_raises.py", "RE", &[][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("report.json");
        let fixture = format!("tests/fixtures/submissions/{file}");
        let mut args = vec![
            "test",
            "cases/leetcode37/example1",
            "--submission",
            &fixture,
            "--json",
            json.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = judge_with(&args);
        let report: Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
        let case = &cases_of(&report)[0];
        assert_eq!(case["verdict"], verdict, "{file}: {case}");
        let time_ms = case["time_ms"].as_f64().unwrap();
        let cpu_ms = case["cpu_ms"].as_f64().unwrap();
        assert!(time_ms > 0.0, "{file} was charged nothing: {case}");
        assert!(time_ms <= cpu_ms + 1.0, "{file}: {case}");
        // The table charges what the JSON does.
        let charged = Duration::from_secs_f64(time_ms / 1000.0);
        let row = run
            .stdout
            .lines()
            .find(|l| l.starts_with(verdict))
            .unwrap_or_else(|| panic!("{file}: no {verdict} row in\n{}", run.stdout));
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            format!("{} {}", words[1], words[2]),
            sudoku_judge::words::format_ms(charged),
            "{file}: {row}"
        );
        // And so does the reason, where it names the time.
        let message = case["message"].as_str().unwrap();
        if verdict == "TLE" {
            assert!(message.contains("of wall time"), "{file}: {message}");
            assert!(
                message.contains(&format!("(CPU {})", sudoku_judge::words::whole_ms(charged))),
                "{file}: {message} / {case}"
            );
        }
    }
}

#[test]
fn a_compile_error_is_ce_on_every_case_with_the_message_once() {
    for (file, tools, place) in [
        ("ce_syntax.cpp", &["g++"][..], "ce_syntax.cpp:6:29: error"),
        ("ce_syntax.rs", &["rustc"][..], "ce_syntax.rs:6:21"),
        ("ce_syntax.java", &["javac"][..], "ce_syntax.java:5: error"),
    ] {
        if !have(tools, file) {
            continue;
        }
        let path = format!("tests/fixtures/submissions/{file}");
        let run = judge_with(&["test", "cases/leetcode37", "--submission", &path]);
        assert_eq!(run.code, 1, "{file}");
        assert!(
            run.stdout
                .starts_with(&format!("{path} did not compile:\n")),
            "{}",
            run.stdout
        );
        assert_eq!(
            run.stdout.matches(place).count(),
            1,
            "{file}:\n{}",
            run.stdout
        );
        let rows = run.stdout.lines().filter(|l| l.starts_with("CE ")).count();
        let cases = shipped("leetcode37");
        assert_eq!(rows, cases, "{file}:\n{}", run.stdout);
        assert!(
            run.stdout.contains(&format!("{cases} cases in")),
            "{}",
            run.stdout
        );
        assert!(
            !run.stdout.contains("failures:"),
            "no block repeats it:\n{}",
            run.stdout
        );
    }
}

#[test]
fn a_second_run_uses_the_cached_build() {
    if !have(&["g++"], "build cache") {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let judge = || {
        let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args([
                "test",
                "cases/acwing166/sample.in",
                "--submission",
                "tests/fixtures/submissions/ac_program.cpp",
            ])
            .current_dir(manifest_dir())
            .env("SUDOKU_JUDGE_CACHE", cache.path())
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let first = judge();
    assert!(
        first.starts_with("compiled tests/fixtures/submissions/ac_program.cpp in "),
        "{first}"
    );
    assert!(
        first.contains("g++ -O2 -std=c++17 -DONLINE_JUDGE"),
        "{first}"
    );
    let second = judge();
    assert!(
        second.starts_with("using the cached build of tests/fixtures/submissions/ac_program.cpp"),
        "{second}"
    );
    let builds = fs::read_dir(cache.path())
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count();
    assert_eq!(builds, 1);
}

/// Waits up to `patience` for `check` to hold.
fn eventually(patience: Duration, mut check: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < patience {
        if check() {
            return true;
        }
        thread::sleep(Duration::from_millis(50));
    }
    check()
}

#[test]
fn a_judge_killed_outright_leaves_no_submission_running() {
    // SIGKILL gives the judge no chance to clean up: the submission must
    // still go, with the process that started it.
    let command_line = "sleep 41.25";
    let sleepers = || -> Vec<String> {
        processes_running(command_line)
            .into_iter()
            .filter(|p| {
                p.split_once(": ")
                    .is_some_and(|(_, cmd)| cmd.starts_with(command_line))
            })
            .collect()
    };
    let mut judge = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args([
            "test",
            "cases/acwing166/sample.in",
            "--cmd",
            command_line,
            "--time-limit",
            "60s",
        ])
        .current_dir(manifest_dir())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        eventually(Duration::from_secs(20), || !sleepers().is_empty()),
        "the submission never started"
    );
    judge.kill().unwrap();
    judge.wait().unwrap();
    assert!(
        eventually(Duration::from_secs(10), || sleepers().is_empty()),
        "left behind: {:?}",
        sleepers()
    );
}

#[test]
fn a_command_whose_child_holds_stdout_is_tle_on_time_and_leaves_nothing() {
    let run = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--cmd",
        "sh tests/fixtures/submissions/tle_child_holds_stdout.sh",
        "--time-limit",
        "300ms",
        "--format",
        "json",
    ]);
    let report = run.json();
    let (verdict, message) = only_verdict(&report);
    assert_eq!(verdict, "TLE", "{message}");
    assert!(message.contains("of wall time"), "{message}");
    let left = processes_running("sleep 347");
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Judges two cases with a command that sleeps holding stdout open, presses
/// Ctrl-C during the first, and returns how the run ended. Its sleeps last
/// `seconds`, which each caller picks apart from every other test's, so that
/// the tests running beside it cannot be mistaken for what it left behind.
fn interrupted_run(seconds: u32, extra: &[&str]) -> Output {
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
    thread::sleep(Duration::from_millis(700));
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

#[test]
fn ctrl_c_kills_the_submission_and_reports_what_was_judged() {
    let output = interrupted_run(349, &[]);
    assert_eq!(output.status.code(), Some(130));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("interrupted: only the cases above were judged"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("TLE "),
        "the interrupted case is not judged:\n{stdout}"
    );
    let left = processes_running("sleep 349");
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn submission_errors_say_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let odd = write(dir.path(), "solution.txt", "int main() {}\n");
    let neither = write(dir.path(), "helper.cpp", "int helper() { return 1; }\n");
    let cpp = write(dir.path(), "main.cpp", "int main() {}\n");
    let odd = odd.to_str().unwrap();
    let run = judge_with(&["test", "cases", "--submission", odd]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--lang"), "{}", run.stderr);

    let run = judge_with(&["test", "cases", "--submission", neither.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("neither a main function"),
        "{}",
        run.stderr
    );

    // A machine without g++: the error names the tool.
    let empty = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(["test", "cases", "--submission", cpp.to_str().unwrap()])
        .current_dir(manifest_dir())
        .env("PATH", empty.path())
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("`g++` is not installed or not on PATH"),
        "{stderr}"
    );

    let run = judge_with(&["test", "cases", "--cmd", "no-such-program-here"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("not on PATH"), "{}", run.stderr);
}

#[test]
fn a_path_that_is_not_there_is_named_with_where_it_was_looked_for() {
    // Outside a repository with cases/: the argument the user gave is named,
    // not the default they never typed.
    let dir = tempfile::tempdir().unwrap();
    let here = dir.path().canonicalize().unwrap();
    let run = run_in(&here, &["test", "mycases", "--cmd", "./slow"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "error: `mycases` is not a file or directory in {}, and there is no cases/ directory \
             here to pick cases from by id; name the suite directories, case directories or \
             NAME.in files to judge by a path that exists, e.g. `sudoku-judge test path/to/cases`\n",
            here.display()
        )
    );
    let run = run_in(&here, &["test"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(&format!(
            "error: there is no cases/ directory in {}, where `sudoku-judge test` looks when \
             given no path;",
            here.display()
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn bench_columns_line_up_beside_a_long_command() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = write(dir.path(), "puzzles.txt", &format!("{PUZZLE}\n{PUZZLE}\n"));
    let command = format!("{} solve", env!("CARGO_BIN_EXE_sudoku-judge"));
    let run = run(&[
        "bench",
        puzzles.to_str().unwrap(),
        "--solver",
        "mrv",
        "--cmd",
        &command,
        "--rounds",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", run.stdout);
    // Each number ends where its header does.
    let header: Vec<char> = lines[0].chars().collect();
    for name in ["puzzles", "guesses"] {
        let column: Vec<char> = name.chars().collect();
        let end = header
            .windows(column.len())
            .position(|w| w == column)
            .unwrap()
            + column.len();
        for row in &lines[1..3] {
            let row: Vec<char> = row.chars().collect();
            assert!(
                matches!(row.get(end - 1), Some('2' | '-'))
                    && row.get(end).is_none_or(|&c| c == ' '),
                "{name} is out of line:\n{}",
                run.stdout
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Making cases: gen, rate, check, stress.
// ---------------------------------------------------------------------------

fn read_dir_sorted(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn gen_is_reproducible_checked_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let gen = |out: &str| {
        run_in(
            dir.path(),
            &[
                "gen",
                "--out",
                out,
                "--count",
                "3",
                "--per-file",
                "4",
                "--seed",
                "42",
            ],
            "",
        )
    };
    let first = gen("a");
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first
            .stdout
            .contains("3 cases with 12 puzzles in a (seed 42)"),
        "{}",
        first.stdout
    );
    assert_eq!(gen("b").code, 0);
    let a = read_dir_sorted(&dir.path().join("a"));
    assert_eq!(a.len(), 6, "three .in/.out pairs");
    assert_eq!(
        a,
        read_dir_sorted(&dir.path().join("b")),
        "same seed, same files"
    );

    let check = run_in(dir.path(), &["check", "a"], "");
    assert_eq!(check.code, 0, "{}", check.stdout);
    assert!(check
        .stdout
        .contains("checked 3 cases with 12 puzzles: no problems"));
    let judged = run_in(dir.path(), &["test", "a"], "");
    assert_eq!(judged.code, 0, "{}", judged.stdout);

    // A clash is an error naming the file, and nothing changes.
    let again = gen("a");
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("gen-001.in already exists"),
        "{}",
        again.stderr
    );
    assert_eq!(a, read_dir_sorted(&dir.path().join("a")));
}

#[test]
fn gen_writes_every_format_and_both_layouts() {
    let dir = tempfile::tempdir().unwrap();
    for (format, layout) in [("leetcode", "dir"), ("grid", "flat"), ("acwing", "dir")] {
        let out = format!("{format}-{layout}");
        let run = run_in(
            dir.path(),
            &[
                "gen", "--out", &out, "--count", "2", "--format", format, "--layout", layout,
                "--givens", "24", "--seed", "9",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        let judged = run_in(dir.path(), &["test", &out, "--format", "json"], "");
        assert_eq!(judged.code, 0, "{format}: {}", judged.stdout);
        for case in cases_of(&judged.json()) {
            assert_eq!(case["format"], format, "{case}");
        }
    }
    let rate = run_in(dir.path(), &["rate", "grid-flat/gen-001.in"], "");
    assert_eq!(rate.code, 0, "{}", rate.stdout);
    let row = rate.stdout.lines().nth(1).unwrap();
    assert!(row.starts_with("grid-flat/gen-001.in:1"), "{row}");
    assert_eq!(row.split_whitespace().nth(1), Some("24"), "{row}");
}

#[test]
fn gen_reaches_seventeen_givens() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(
        dir.path(),
        &[
            "gen",
            "--out",
            "m",
            "--count",
            "2",
            "--per-file",
            "3",
            "--givens",
            "17",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rate = run_in(dir.path(), &["rate", "m/gen-001.in", "m/gen-002.in"], "");
    let givens: Vec<&str> = rate_rows(&rate.stdout).iter().map(|r| r[1]).collect();
    assert_eq!(givens, ["17"; 6]);
    assert_eq!(run_in(dir.path(), &["check", "m"], "").code, 0);
}

/// The puzzle rows of `rate`'s table, split into words: not the header,
/// not the closing line of means.
fn rate_rows(stdout: &str) -> Vec<Vec<&str>> {
    stdout
        .lines()
        .skip(1)
        .filter(|l| !l.contains(" puzzles: mean "))
        .map(|l| l.split_whitespace().collect())
        .collect()
}

/// The example `gen --help` and the README give, for several seeds: it
/// must never fail for want of fiendish puzzles.
#[test]
fn the_help_example_makes_100_fiendish_puzzles_for_any_seed() {
    let help = run(&["gen", "--help"]);
    let example = "gen --out cases/mine --grade fiendish --count 10 --per-file 10";
    assert!(help.stdout.contains(example), "{}", help.stdout);
    let dir = tempfile::tempdir().unwrap();
    for seed in ["0", "1", "2"] {
        let mut args: Vec<&str> = example.split(' ').collect();
        args[2] = seed;
        args.extend(["--seed", seed]);
        let made = run_in(dir.path(), &args, "");
        assert_eq!(made.code, 0, "seed {seed}: {}", made.stderr);
        assert!(
            made.stdout.contains(&format!(
                "10 cases with 100 puzzles in {seed} (seed {seed})"
            )),
            "{}",
            made.stdout
        );
        let rate = run_in(dir.path(), &["rate", seed, "--max-nodes", "1000"], "");
        assert_eq!(rate.code, 0, "{}", rate.stdout);
        let grades: Vec<&str> = rate_rows(&rate.stdout).iter().map(|r| r[4]).collect();
        assert_eq!(grades, ["fiendish"; 100]);
    }
    assert_eq!(run_in(dir.path(), &["check", "0", "1", "2"], "").code, 0);
}

/// Ctrl-C in the middle of a long `gen` leaves no case behind, and no
/// staging directory either.
#[test]
fn an_interrupted_gen_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args([
            "gen",
            "--out",
            "mine/suite",
            "--grade",
            "fiendish",
            "--count",
            "1000",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until it has made cases (staged), then interrupt it.
    let suite = dir.path().join("mine/suite");
    assert!(
        eventually(Duration::from_secs(60), || fs::read_dir(&suite)
            .is_ok_and(|mut d| d.next().is_some())),
        "gen never started staging"
    );
    thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) on our own child, still running (not yet waited for).
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nothing was written"));
    assert!(
        !dir.path().join("mine").exists(),
        "left behind: {:?}",
        read_dir_sorted(&suite)
    );
}

/// `--hard-for` puzzles cost the named solver what they promise, counted
/// by `rate` with the built-in solvers.
#[test]
fn hard_for_puzzles_meet_their_node_bound() {
    let dir = tempfile::tempdir().unwrap();
    for (solver, min, column) in [("backtrack", "300000", 5), ("mrv", "20000", 6)] {
        let made = run_in(
            dir.path(),
            &[
                "gen",
                "--out",
                solver,
                "--count",
                "1",
                "--per-file",
                "3",
                "--hard-for",
                solver,
                "--min-nodes",
                min,
                "--seed",
                "4",
            ],
            "",
        );
        assert_eq!(made.code, 0, "{solver}: {}", made.stderr);
        let rate = run_in(
            dir.path(),
            &["rate", solver, "--max-nodes", "100000000"],
            "",
        );
        let rows = rate_rows(&rate.stdout);
        assert_eq!(rows.len(), 3, "{}", rate.stdout);
        for row in &rows {
            let nodes: u64 = row[column].parse().unwrap_or_else(|_| panic!("{row:?}"));
            assert!(nodes >= min.parse().unwrap(), "{solver}: {row:?}");
        }
    }
    let made = run_in(
        dir.path(),
        &[
            "gen",
            "--out",
            "p",
            "--count",
            "2",
            "--hard-for",
            "propagate",
            "--min-nodes",
            "50",
        ],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let rate = run_in(dir.path(), &["rate", "p"], "");
    for row in rate_rows(&rate.stdout) {
        let guesses: u64 = row[3].parse().unwrap();
        assert!(guesses >= 50, "{row:?}");
    }
    let bad = run_in(dir.path(), &["gen", "--out", "q", "--hard-for", "mrv"], "");
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--min-nodes"), "{}", bad.stderr);
}

/// The naive row-major DFS that AcWing 166 times out, as shipped with the
/// suite as its TLE reference.
const NAIVE_DFS: &str = "cases/acwing166/references/tle_naive_dfs.cpp";

#[test]
fn hack_finds_a_tle_for_naive_dfs_and_the_saved_case_reproduces_it() {
    if !have(&["g++"], "hack_finds_a_tle_for_naive_dfs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("hacked");
    let save = save.to_str().unwrap();
    let hack = judge_with(&[
        "hack",
        "--submission",
        NAIVE_DFS,
        "--time-limit",
        "1s",
        "--budget",
        "40",
        "--seed",
        "0",
        "--save",
        save,
    ]);
    assert_eq!(hack.code, 1, "{}\n{}", hack.stdout, hack.stderr);
    assert!(
        hack.stdout.starts_with("hacked: TLE in round "),
        "{}",
        hack.stdout
    );
    assert!(
        hack.stderr.contains("the slowest so far"),
        "{}",
        hack.stderr
    );
    let input = format!("{save}/hack-0.in");
    let reproduce =
        format!("reproduce: sudoku-judge test {input} --submission {NAIVE_DFS} --time-limit 1s");
    assert!(hack.stdout.contains(&reproduce), "{}", hack.stdout);
    // The saved case is sound, and `test` gives the same verdict.
    assert_eq!(judge_with(&["check", save]).code, 0);
    let (again, report) = judge_fixture_path(NAIVE_DFS, &input, &["--time-limit", "1s"]);
    assert_eq!(again.code, 1);
    assert_eq!(only_verdict(&report).0, "TLE");
}

#[test]
fn hack_reports_the_slowest_input_when_the_submission_survives() {
    let dir = tempfile::tempdir().unwrap();
    let hack = run_in(
        dir.path(),
        &[
            "hack",
            "--solver",
            "propagate",
            "--budget",
            "6",
            "--puzzles",
            "2",
        ],
        "",
    );
    assert_eq!(hack.code, 0, "{}\n{}", hack.stdout, hack.stderr);
    assert!(
        hack.stdout.starts_with("no failure in 6 rounds"),
        "{}",
        hack.stdout
    );
    assert!(hack
        .stdout
        .contains("reproduce: sudoku-judge test hack-cases/hack-0.in --solver propagate"));
    let judged = run_in(dir.path(), &["test", "hack-cases"], "");
    assert_eq!(judged.code, 0, "{}", judged.stdout);
    let bad = run_in(dir.path(), &["hack", "--budget", "soon"], "");
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("invalid --budget"), "{}", bad.stderr);
}

/// LeetCode accepts the textbook backtracking in Python; so must the
/// leetcode37 suite, with room to spare.
#[test]
fn the_textbook_python_solution_is_accepted_on_leetcode37() {
    if !have(
        &["python3"],
        "the_textbook_python_solution_is_accepted_on_leetcode37",
    ) {
        return;
    }
    let (run, report) = judge_fixture_path(
        "cases/leetcode37/references/ac_textbook.py",
        "cases/leetcode37",
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(cases_of(&report).len(), shipped("leetcode37"));
    assert_eq!(only_verdict(&report).0, "AC");
}

#[test]
fn calibrate_says_whether_the_limit_reproduces_the_real_verdicts() {
    if !have(&["g++"], "calibrate_says_whether_the_limit_reproduces") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    fs::create_dir_all(&suite).unwrap();
    fs::copy(
        manifest_dir().join("cases/acwing166/sample.in"),
        suite.join("sample.in"),
    )
    .unwrap();
    fs::copy(
        manifest_dir().join("cases/acwing166/sample.out"),
        suite.join("sample.out"),
    )
    .unwrap();
    for file in ["ac_program.cpp", "tle_endless_loop.cpp"] {
        fs::copy(
            manifest_dir().join("tests/fixtures/submissions").join(file),
            suite.join(file),
        )
        .unwrap();
    }
    let toml = "problem = \"acwing166\"\ntime_limit = \"500ms\"\n\n\
        [[reference]]\nfile = \"ac_program.cpp\"\nverdict = \"AC\"\n\n\
        [[reference]]\nfile = \"tle_endless_loop.cpp\"\nverdict = \"TLE\"\n";
    fs::write(suite.join("judge.toml"), toml).unwrap();
    let calibrate = |extra: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"));
        command
            .arg("calibrate")
            .arg(&suite)
            .args(extra)
            .env("SUDOKU_JUDGE_CACHE", build_cache());
        let output = command.output().unwrap();
        (
            output.status.code().unwrap(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    let (code, stdout) = calibrate(&[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("time limit 500 ms, 1 case, 2 references"),
        "{stdout}"
    );
    assert!(
        stdout.contains("tle_endless_loop.cpp: AcWing says TLE, this suite TLE"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ac_program.cpp: AcWing says AC, this suite AC"),
        "{stdout}"
    );
    assert!(
        stdout.contains("reproduces every real verdict, with a factor of 2 to spare"),
        "{stdout}"
    );

    // A reference whose real verdict no limit can give: said so, exit 1.
    let wrong = toml
        .replace("\"AC\"", "\"was AC\"")
        .replace("\"TLE\"", "\"AC\"")
        .replace("\"was AC\"", "\"TLE\"");
    fs::write(suite.join("judge.toml"), wrong).unwrap();
    let (code, stdout) = calibrate(&[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("NOT reproduced"), "{stdout}");
    assert!(
        stdout.contains("no time limit separates the references"),
        "{stdout}"
    );

    // No references: an error naming the file.
    fs::write(suite.join("judge.toml"), "time_limit = \"1s\"\n").unwrap();
    let run = judge_with(&["calibrate", suite.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("judge.toml lists no [[reference]]"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_time_scale_multiplies_the_limit_and_shows_in_the_header() {
    let dir = example_suite();
    fs::write(
        dir.path().join("judge.toml"),
        "time_limit = \"1s\"\ntime_scale = 1.5\n",
    )
    .unwrap();
    let table = run_in(dir.path(), &["test", "."], "");
    assert_eq!(table.code, 0, "{}", table.stdout);
    assert!(
        table
            .stdout
            .lines()
            .next()
            .unwrap()
            .ends_with(", time limits x 1.5 (time_scale)"),
        "{}",
        table.stdout
    );
    let json = run_in(
        dir.path(),
        &["test", ".", "--time-scale", "2", "--format", "json"],
        "",
    );
    assert_eq!(
        cases_of(&json.json())[0]["time_limit_ms"].as_f64(),
        Some(2000.0),
        "{}",
        json.stdout
    );
    let bad = run_in(dir.path(), &["test", ".", "--time-scale=-1"], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("invalid --time-scale"),
        "{}",
        bad.stderr
    );
}

/// Every case of a problem suite is an input that judge could send: AcWing
/// sends 81-character lines of digits and `.` closed by `end`; LeetCode a
/// board (here in its literal form) with blanks to fill and one solution.
#[test]
fn the_problem_suites_hold_only_what_their_judge_sends() {
    for case in case::discover(&[manifest_dir().join("cases/acwing166")]).unwrap() {
        let text = fs::read_to_string(&case.input).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.last(), Some(&"end"), "{}", case.id);
        for line in &lines[..lines.len() - 1] {
            assert!(
                line.len() == 81
                    && line
                        .bytes()
                        .all(|b| b == b'.' || (b'1'..=b'9').contains(&b)),
                "{}: {line}",
                case.id
            );
        }
    }
    for case in case::discover(&[manifest_dir().join("cases/leetcode37")]).unwrap() {
        let data = case::load(&case, true).unwrap();
        assert_eq!(data.format.name(), "leetcode", "{}", case.id);
    }
    // LeetCode sends a board with at least one blank and one solution: a
    // full board is not one of its tests (a solution LeetCode accepts may
    // well fail on it, indexing an empty list of blanks).
    for suite in ["cases/leetcode37", "cases/leetcode37-hard"] {
        for case in case::discover(&[manifest_dir().join(suite)]).unwrap() {
            let data = case::load(&case, true).unwrap();
            for puzzle in data.puzzles().unwrap() {
                let bytes = puzzle.unwrap().1.to_bytes();
                assert!(bytes.contains(&0), "{suite}: {} has no blank", case.id);
                assert_eq!(count_solutions(&bytes, 2), 1, "{suite}: {}", case.id);
            }
        }
    }
}

/// `rate` reads a suite directory, its columns line up under the header
/// whatever the width of a name, and `gen` counts "1 guess".
#[test]
fn rate_reads_suites_in_aligned_columns_and_gen_says_one_guess() {
    let rate = run(&["rate", "cases/acwing166", "--max-nodes", "1000"]);
    assert_eq!(rate.code, 0, "{}{}", rate.stdout, rate.stderr);
    let rows = rate_rows(&rate.stdout);
    let puzzles: usize = case::discover(&[manifest_dir().join("cases/acwing166")])
        .unwrap()
        .iter()
        .map(|c| case::load(c, true).unwrap().puzzles)
        .sum();
    assert_eq!(rows.len(), puzzles);
    // The last column is right-aligned, so aligned rows are as long as the
    // header, however long a puzzle's name.
    let lines: Vec<&str> = rate.stdout.lines().take(puzzles + 1).collect();
    for line in &lines {
        assert_eq!(line.len(), lines[0].len(), "{line}");
    }
    assert!(rate.stdout.contains("more than 1000"), "{}", rate.stdout);

    let dir = tempfile::tempdir().unwrap();
    let made = run_in(
        dir.path(),
        &[
            "gen",
            "--out",
            "m",
            "--grade",
            "medium",
            "--count",
            "1",
            "--per-file",
            "10",
            "--seed",
            "166",
        ],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert!(made.stdout.contains(", 1 guess)"), "{}", made.stdout);
    assert!(!made.stdout.contains(" 1 guesses"), "{}", made.stdout);
}

#[test]
fn rate_says_how_many_solutions_and_grades_only_unique_puzzles() {
    let rate = run(&[
        "rate",
        "tests/fixtures/corpus-faults/several-solutions.in",
        "cases/acwing166/sample.in",
    ]);
    assert_eq!(rate.code, 1, "a puzzle without one solution has no grade");
    let rows = rate_rows(&rate.stdout);
    assert_eq!(rows[0][2], "2+", "{}", rate.stdout);
    assert_eq!(rows[0][4], "-", "{}", rate.stdout);
    for row in &rows[1..] {
        assert_eq!(row[2], "1", "{}", rate.stdout);
        assert!(
            ["easy", "medium", "hard", "fiendish"].contains(&row[4]),
            "{row:?}"
        );
    }
}

#[test]
fn check_finds_each_kind_of_corpus_fault_and_passes_the_shipped_cases() {
    let found = run(&["check", "tests/fixtures/corpus-faults"]);
    assert_eq!(found.code, 1);
    let dir = "tests/fixtures/corpus-faults";
    for expected in [
        format!("{dir}/contradictory-givens.in:1:2: the givens of puzzle 1 break the rules: row 1 has two 5s (r1c1 and r1c2)"),
        format!("{dir}/no-solution.in:1: the puzzle has no solution"),
        format!("{dir}/several-solutions.in:1: the puzzle has 2 solutions; a judge's puzzle needs exactly one"),
        format!("{dir}/malformed-line.in:2:41: '?' is not a cell"),
        format!("{dir}/wrong-answer.out:1: answer 1 does not solve puzzle 1: r9c9 was given as 9, the answer has 1"),
        format!("{dir}/duplicate.in:2: puzzle 2 is the same as the one at {dir}/duplicate.in:1"),
    ] {
        assert!(found.stdout.contains(&expected), "missing {expected:?} in:\n{}", found.stdout);
    }
    assert!(
        found
            .stdout
            .ends_with("checked 6 cases with 5 puzzles: 6 problems\n"),
        "{}",
        found.stdout
    );

    let shipped = run_in(&manifest_dir(), &["check"], "");
    assert_eq!(shipped.code, 0, "{}", shipped.stdout);
    assert!(
        shipped.stdout.contains(": no problems"),
        "{}",
        shipped.stdout
    );

    // `test` refuses the case no answer could solve.
    let test = run(&["test", "tests/fixtures/corpus-faults/no-solution.in"]);
    assert_eq!(test.code, 2);
    assert!(
        test.stdout
            .contains("puzzle 1 has no solution, so no answer can be right"),
        "{}",
        test.stdout
    );
}

#[test]
fn stress_finds_a_bug_that_needs_two_puzzles_and_shrinks_to_them() {
    if !have(&["g++"], "stress with C++") {
        return;
    }
    let save = tempfile::tempdir().unwrap();
    let save_dir = save.path().to_str().unwrap();
    let fixture = "tests/fixtures/submissions/wa_stale_state.cpp";
    let run = judge_with(&[
        "stress",
        "--submission",
        fixture,
        "--rounds",
        "20",
        "--save",
        save_dir,
    ]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.starts_with("round 1 failed with WA: puzzle 2"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("-> 2 puzzles with"), "{}", run.stdout);
    let saved: Vec<PathBuf> = fs::read_dir(save.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 2, "{saved:?}");
    let input = save.path().join("stress-0.in");
    assert!(
        run.stdout
            .contains(&format!("saved:     {}", input.display())),
        "{}",
        run.stdout
    );
    let puzzles = fs::read_to_string(&input).unwrap();
    assert_eq!(
        puzzles.lines().count(),
        3,
        "two puzzles and `end`:\n{puzzles}"
    );

    // The saved case reproduces the failure, and a correct program passes it.
    let input = input.to_str().unwrap();
    let replay = judge_with(&["test", input, "--submission", fixture]);
    assert_eq!(replay.code, 1);
    assert!(replay.stdout.contains("\nWA "), "{}", replay.stdout);
    let correct = judge_with(&[
        "test",
        input,
        "--submission",
        "tests/fixtures/submissions/ac_program.cpp",
    ]);
    assert_eq!(correct.code, 0, "{}", correct.stdout);

    // A second failure is saved beside the first, never over it.
    let again = judge_with(&[
        "stress",
        "--submission",
        fixture,
        "--rounds",
        "1",
        "--save",
        save_dir,
    ]);
    assert_eq!(again.code, 1);
    assert!(save.path().join("stress-0-2.in").is_file());
}

#[test]
fn stress_says_it_is_shrinking_when_stderr_is_not_a_terminal() {
    let save = tempfile::tempdir().unwrap();
    let run = run(&[
        "stress",
        "--solver",
        "faulty-leaves-blank",
        "--rounds",
        "3",
        "--save",
        save.path().to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("\nstress: shrinking the failing input: 5 puzzles with 1"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.starts_with("round 1 failed with WA"),
        "{}",
        run.stdout
    );
}

#[test]
fn stress_finds_a_rare_bug_within_bounded_rounds() {
    if !have(&["g++"], "stress with C++") {
        return;
    }
    let save = tempfile::tempdir().unwrap();
    let fixture = "tests/fixtures/submissions/wa_sometimes.cpp";
    let run = judge_with(&[
        "stress",
        "--submission",
        fixture,
        "--rounds",
        "100",
        "--puzzles",
        "1",
        "--seed",
        "100",
        "--save",
        save.path().to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "not found in 100 rounds:\n{}", run.stdout);
    assert!(
        run.stdout.contains("failed with WA: the answer: r1c1"),
        "{}",
        run.stdout
    );
    let reproduce = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: sudoku-judge "))
        .expect("a reproduce line");
    let args = shell_words::split(reproduce).unwrap();
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    let other = tempfile::tempdir().unwrap();
    args.extend(["--save", other.path().to_str().unwrap()]);
    let replay = judge_with(&args);
    assert!(
        replay.stdout.starts_with("round 1 failed with WA"),
        "{}",
        replay.stdout
    );

    // A correct program passes the same rounds.
    let fine = judge_with(&[
        "stress",
        "--submission",
        "tests/fixtures/submissions/ac_program.cpp",
        "--rounds",
        "30",
        "--puzzles",
        "1",
        "--seed",
        "100",
        "--save",
        other.path().to_str().unwrap(),
    ]);
    assert_eq!(fine.code, 0, "{}", fine.stdout);
    assert!(
        fine.stdout.starts_with("all 30 rounds accepted"),
        "{}",
        fine.stdout
    );
}

// ---------------------------------------------------------------------------
// Judging at scale: --jobs, --partition, filters, --failed, JUnit and JSON files.
// ---------------------------------------------------------------------------

fn ids_of(run: &Run) -> Vec<String> {
    verdicts(&run.json())
        .into_iter()
        .map(|(id, _)| id)
        .collect()
}

#[test]
fn parallel_jobs_report_in_case_order() {
    let one = run(&["test", "--format", "json"]);
    let two = run(&["test", "--format", "json", "--jobs", "2"]);
    assert_eq!(two.code, 0, "{}", two.stdout);
    assert_eq!(ids_of(&one), ids_of(&two));
    let table = run(&["test", "-j", "2"]);
    assert!(
        table.stdout.starts_with(
            &format!(
                "judging {} cases with solver propagate, 2 at a time (wall times are taken under load)\n",
                shipped("")
            )
        ),
        "{}",
        table.stdout
    );
}

#[test]
fn partitions_split_the_sorted_cases_exactly() {
    let all = ids_of(&run(&["test", "--format", "json"]));
    let mut union = Vec::new();
    for k in 1..=3 {
        let share = ids_of(&run(&[
            "test",
            "--format",
            "json",
            "--partition",
            &format!("{k}/3"),
        ]));
        assert!(!share.is_empty());
        union.extend(share);
    }
    let mut sorted_union = union.clone();
    sorted_union.sort();
    sorted_union.dedup();
    assert_eq!(sorted_union.len(), union.len(), "shares overlap: {union:?}");
    let mut sorted_all = all.clone();
    sorted_all.sort();
    assert_eq!(sorted_union, sorted_all);
    let bad = run(&["test", "--partition", "4/3"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("is not a partition; write K/N"),
        "{}",
        bad.stderr
    );
}

#[test]
fn filters_pick_cases_by_id_substring_or_glob() {
    let picked = ids_of(&run(&[
        "test",
        "acwing166/hard",
        "leetcode37/*blank*",
        "--format",
        "json",
    ]));
    assert_eq!(picked, ["acwing166/hard", "leetcode37/one-blank"]);
    let none = run(&["test", "acwing166/nothing-like-this"]);
    assert_eq!(none.code, 2);
    assert!(
        none.stderr
            .contains("no case matches `acwing166/nothing-like-this`"),
        "{}",
        none.stderr
    );
}

#[test]
fn failed_reruns_only_what_was_not_accepted() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a", "b"] {
        write(
            dir.path(),
            &format!("cases/{name}.in"),
            &format!("{PUZZLE}\nend\n"),
        );
        write(
            dir.path(),
            &format!("cases/{name}.out"),
            &format!("{ANSWER}\n"),
        );
    }
    write(dir.path(), "cases/c.in", &format!("{}\nend\n", ANSWER));
    // r9c9 is given in c (a solved board), so the faulty solver's change of
    // it is WA there too; a and b fail as well: all three are remembered.
    let first = run_in(dir.path(), &["test", "--solver", "faulty-leaves-blank"], "");
    assert_eq!(first.code, 1);
    let record = fs::read_to_string(dir.path().join(".sudoku-judge/failed")).unwrap();
    assert_eq!(
        record.lines().count(),
        2,
        "c has no blank, so it passes: {record}"
    );
    let rerun = run_in(dir.path(), &["test", "--failed", "--format", "json"], "");
    assert_eq!(rerun.code, 0, "{}", rerun.stdout);
    assert_eq!(ids_of(&rerun), ["a", "b"]);
    let nothing = run_in(dir.path(), &["test", "--failed"], "");
    assert_eq!(nothing.code, 0);
    assert!(
        nothing.stdout.contains("no failures; nothing to rerun"),
        "{}",
        nothing.stdout
    );
    assert!(
        !dir.path().join("cases/.sudoku-judge").exists(),
        "nothing is written into cases/"
    );
}

#[test]
fn failed_with_no_earlier_run_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "cases/a.in", &format!("{PUZZLE}\nend\n"));
    let run = run_in(dir.path(), &["test", "--failed"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(
            "error: --failed reruns the cases that failed in the last run in this directory, \
             and no run is recorded here (.sudoku-judge/failed in "
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .ends_with("run `sudoku-judge test` here first, then `sudoku-judge test --failed`\n"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("os error"), "{}", run.stderr);
}

#[test]
fn junit_and_json_files_are_written_beside_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("reports/junit.xml");
    let json = dir.path().join("report.json");
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "cases/leetcode37",
        "tests/fixtures/malformed/short-line.in",
        "--solver",
        "faulty-wrong-digit",
        "--junit",
        junit.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stdout.contains("failures:"),
        "the table still goes to stdout"
    );
    let report: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let total = 2 + shipped("leetcode37");
    assert_eq!(report["total"], total);

    let xml = fs::read_to_string(&junit).unwrap();
    let mut suites: Vec<PathBuf> = case::discover(&[manifest_dir().join("cases/leetcode37")])
        .unwrap()
        .iter()
        .map(|c| c.suite().to_path_buf())
        .collect();
    suites.sort();
    suites.dedup();
    assert_eq!(
        xml.matches("<testsuite ").count(),
        suites.len() + 2,
        "one per suite directory:\n{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), total);
    assert!(xml.contains(r#"<failure message="WA: "#), "{xml}");
    assert!(xml.contains(r#"type="WA""#));
    assert!(xml.contains("<error "), "the malformed case is an error");
    assert!(
        xml.contains("[5] is where your answer differs"),
        "the diff travels with the failure"
    );
    if have(&["xmllint"], "JUnit schema validation") {
        let schema = manifest_dir().join("tests/fixtures/junit.xsd");
        let validate = |path: &Path| {
            Command::new("xmllint")
                .args(["--noout", "--schema"])
                .arg(&schema)
                .arg(path)
                .output()
                .unwrap()
        };
        let checked = validate(&junit);
        assert!(
            checked.status.success(),
            "{}",
            String::from_utf8_lossy(&checked.stderr)
        );
        // The schema is a real check: a testcase without a name fails it.
        let broken = dir.path().join("broken.xml");
        fs::write(
            &broken,
            xml.replacen("<testcase name=", "<testcase label=", 1),
        )
        .unwrap();
        assert!(!validate(&broken).status.success());
    }
}

#[test]
fn an_interrupted_run_still_writes_its_report_files() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("junit.xml");
    let output = interrupted_run(351, &["--junit", junit.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(130));
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("<testsuites "), "{xml}");
    assert_eq!(
        xml.matches("<testcase ").count(),
        0,
        "nothing finished: {xml}"
    );
}

// ---------------------------------------------------------------------------
// The solvers against the public benchmark sets (skipped, visibly, without them).
// ---------------------------------------------------------------------------

fn dataset(name: &str) -> Option<PathBuf> {
    // $SUDOKU_JUDGE_DATASETS points elsewhere, e.g. from a worktree.
    let dir = std::env::var_os("SUDOKU_JUDGE_DATASETS")
        .map_or_else(|| manifest_dir().join("../shared/datasets"), PathBuf::from);
    let path = dir.join(name);
    if path.is_file() {
        Some(path)
    } else {
        skip("dataset test", &format!("{} is absent", path.display()));
        None
    }
}

/// How many puzzles of each set a solver is checked on: all fast solvers
/// get a few hundred; the textbook ones only as many as they solve in
/// seconds (some take a second per 17-given puzzle).
fn sample_size(solver: &str, set: &str) -> usize {
    match (solver, set) {
        ("propagate", _) => 300,
        ("mrv", _) => 30,
        ("singles", "puzzles2_17_clue") => 0,
        ("singles", _) => 20,
        ("bitmask", "puzzles5_forum_hardest_1905_11+") => 5,
        _ => 0,
    }
}

#[test]
fn every_solver_agrees_with_the_dataset_solutions() {
    use sudoku_judge::bench::read_puzzles;
    use sudoku_judge::solver::ALL;
    for set in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles5_forum_hardest_1905_11+",
        "puzzles6_forum_hardest_1106",
    ] {
        let (Some(puzzles), Some(solutions)) = (
            dataset(&format!("{set}.txt")),
            dataset(&format!("{set}.solutions.txt")),
        ) else {
            continue;
        };
        let puzzles = read_puzzles(&puzzles, Some(300)).unwrap().puzzles;
        let solutions: Vec<String> = fs::read_to_string(solutions)
            .unwrap()
            .lines()
            .take(300)
            .map(str::to_owned)
            .collect();
        for solver in ALL.iter().filter(|s| !s.faulty) {
            let n = sample_size(solver.name, set);
            for (i, (puzzle, solution)) in puzzles.iter().zip(&solutions).take(n).enumerate() {
                let mut board = puzzle.to_rows();
                (solver.solve)(&mut board);
                let answer: String = board.iter().flatten().collect();
                assert_eq!(
                    &answer,
                    solution,
                    "{} on {set} puzzle {}",
                    solver.name,
                    i + 1
                );
            }
        }
    }
}

#[test]
fn counting_finds_several_solutions_on_the_non_unique_set() {
    use sudoku_judge::bench::read_puzzles;
    use sudoku_judge::solver::reference::{count_solutions, search};
    let Some(path) = dataset("puzzles7_serg_benchmark.txt") else {
        return;
    };
    for puzzle in read_puzzles(&path, Some(200)).unwrap().puzzles {
        let cells = puzzle.to_bytes();
        assert!(count_solutions(&cells, 2) >= 2, "{}", puzzle.to_line());
        let first = search(&cells, 1).first.expect("a solution");
        let board = sudoku_judge::board::Board::from_bytes(&first).unwrap();
        assert!(board.solves(&puzzle), "{}", puzzle.to_line());
    }
}

#[test]
fn solved_boards_are_valid_and_keep_their_givens_over_many_seeds() {
    use sudoku_judge::generate::{Generator, Target};
    use sudoku_judge::solver::ALL;
    for seed in 0..200 {
        let made = Generator::new(seed).puzzle(Target::default(), 1).unwrap();
        for solver in ALL.iter().filter(|s| !s.faulty && s.name != "backtrack") {
            let mut board = made.puzzle.to_rows();
            (solver.solve)(&mut board);
            let cells: Vec<u8> = board
                .iter()
                .flatten()
                .map(|&c| c.to_digit(10).unwrap_or(0) as u8)
                .collect();
            let answer =
                sudoku_judge::board::Board::from_bytes(&cells.try_into().unwrap()).unwrap();
            assert!(
                answer.solves(&made.puzzle),
                "{} on seed {seed}",
                solver.name
            );
            // One solution: every sound solver finds the same one.
            assert_eq!(answer, made.solution, "{} on seed {seed}", solver.name);
        }
    }
}

// ---------------------------------------------------------------------------
// Huge inputs stream: the harness's memory does not grow with the case.
// ---------------------------------------------------------------------------

/// Judges `args` and returns the exit code with the harness's own peak
/// resident memory (its `VmHWM`, sampled until it exits), in KB.
fn peak_memory_kb(args: &[&str]) -> (i32, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(args)
        .current_dir(manifest_dir())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut peak = 0;
    loop {
        if let Ok(status) = fs::read_to_string(format!("/proc/{}/status", child.id())) {
            if let Some(kb) = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            {
                peak = peak.max(kb);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code().unwrap(), peak);
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// An AcWing case of `count` puzzles, the shipped AcWing puzzles over and
/// over, with its expected output.
fn repeated_case(dir: &Path, count: usize) -> PathBuf {
    let mut pairs = Vec::new();
    for c in case::discover(&[manifest_dir().join("cases/acwing166")]).unwrap() {
        let data = case::load(&c, true).unwrap();
        let answers: Vec<_> = data.expected_boards().unwrap().unwrap().collect();
        for (puzzle, answer) in data.puzzles().unwrap().zip(answers) {
            pairs.push((puzzle.unwrap().1.to_line(), answer.unwrap().1.to_line()));
        }
    }
    let (mut input, mut expected) = (String::new(), String::new());
    for (puzzle, answer) in pairs.iter().cycle().take(count) {
        input.push_str(puzzle);
        input.push('\n');
        expected.push_str(answer);
        expected.push('\n');
    }
    input.push_str("end\n");
    write(dir, &format!("n{count}.out"), &expected);
    write(dir, &format!("n{count}.in"), &input)
}

/// `cargo test --release --test cli -- --ignored --nocapture` prints the
/// figures the README quotes: a case of a million puzzles (82 MB in, 82 MB
/// out) is judged in about the memory of a case of a thousand.
#[test]
#[ignore = "judges a million puzzles: a minute in a release build, far longer in debug"]
fn a_million_puzzle_case_is_judged_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let small = repeated_case(dir.path(), 1_000);
    let huge = repeated_case(dir.path(), 1_000_000);
    let exe = env!("CARGO_BIN_EXE_sudoku-judge");
    let program = format!("{exe} solve");
    for (how, extra) in [
        ("built-in solver", vec![]),
        ("program", vec!["--cmd", &program]),
    ] {
        let mut figures = Vec::new();
        for case in [&small, &huge] {
            let mut args = vec!["test", case.to_str().unwrap(), "--time-limit", "120s"];
            args.extend(&extra);
            let (code, peak_kb) = peak_memory_kb(&args);
            assert_eq!(code, 0, "{how} on {}", case.display());
            figures.push(peak_kb);
        }
        println!(
            "{how}: harness peak {:.1} MB for 1,000 puzzles, {:.1} MB for 1,000,000",
            figures[0] as f64 / 1024.0,
            figures[1] as f64 / 1024.0
        );
        // Holding the input or the output alone would take 82 MB.
        assert!(
            figures[1] < figures[0] + 16 * 1024,
            "{how}: the harness grew from {} KB to {} KB",
            figures[0],
            figures[1]
        );
    }
}
