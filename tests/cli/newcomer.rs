//! What a newcomer meets on a second run and outside a checkout: quiet
//! defaults, reports where they are asked for, the "would say" line that
//! knows what each judge runs, rerun lines that reproduce the run, and the
//! shipped suites wherever the judge is installed.

use std::path::Path;

use super::{cases_of, have, judge_with, run_in, write, ANSWER, PUZZLE};

fn fixture(name: &str) -> String {
    super::manifest_dir()
        .join("tests/fixtures/submissions")
        .join(name)
        .display()
        .to_string()
}

/// A suite of `cases` flat cases, each `puzzles` copies of the example
/// puzzle with their answers, judged as `problem`.
fn suite(dir: &Path, cases: usize, puzzles: usize, problem: Option<&str>) {
    for n in 0..cases {
        write(
            dir,
            &format!("c{n}.in"),
            &format!("{}end\n", format!("{PUZZLE}\n").repeat(puzzles)),
        );
        write(
            dir,
            &format!("c{n}.out"),
            &format!("{ANSWER}\n").repeat(puzzles),
        );
    }
    if let Some(problem) = problem {
        write(dir, "judge.toml", &format!("problem = \"{problem}\"\n"));
    }
}

/// A command that prints every puzzle back unchanged: WA on every case.
const ECHO: &str = "cat";

#[test]
fn quiet_shows_the_failing_rows_and_the_summary_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    suite(dir.path(), 11, 3, Some("acwing166"));
    let run = run_in(dir.path(), &["test", ".", "--cmd", ECHO, "--quiet"], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().filter(|l| !l.is_empty()).collect();
    // The table's header, 11 rows, the totals, what AcWing would say and
    // the count: no failure block, no grid, no rerun line.
    assert_eq!(lines.len(), 1 + 11 + 3, "{}", run.stdout);
    assert!(!run.stdout.contains("failures:"), "{}", run.stdout);
    assert!(!run.stdout.contains("rerun:"), "{}", run.stdout);
    for row in &lines[1..12] {
        assert!(row.starts_with("WA "), "{row}");
        // The short form of the reason fits the row.
        assert!(row.chars().count() < 140, "{row}");
    }
}

#[test]
fn a_second_run_says_what_a_person_needs_and_verbose_says_the_rest() {
    if !have(&["g++"], "second run") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    suite(dir.path(), 1, 3, None);
    // Three wrong answers in one case: one pair of grids by default.
    let wrong = fixture("wa_wrong_digit.cpp");
    let args = ["test", ".", "--submission", &wrong];
    let _first = run_in(dir.path(), &args, "");
    let second = run_in(dir.path(), &args, "");
    assert!(
        second.stdout.contains("using the cached build of"),
        "{}",
        second.stdout
    );
    assert!(!second.stdout.contains("toolchain: "), "{}", second.stdout);
    let sandbox = second
        .stdout
        .lines()
        .find(|l| l.starts_with("sandbox: "))
        .expect("a sandbox line");
    assert!(sandbox.chars().count() < 120, "{sandbox}");
    // A pair of grids has four rules across both.
    let grids = |text: &str| {
        text.matches("+---------+---------+---------+   +---------+")
            .count()
            / 4
    };
    assert_eq!(grids(&second.stdout), 1, "{}", second.stdout);
    assert!(
        second
            .stdout
            .contains("(2 more wrong answers with grids under --verbose)"),
        "{}",
        second.stdout
    );
    let verbose = run_in(dir.path(), &[&args[..], &["--verbose"]].concat(), "");
    assert!(
        verbose.stdout.contains("toolchain: C++ g++"),
        "{}",
        verbose.stdout
    );
    assert_eq!(grids(&verbose.stdout), 3, "{}", verbose.stdout);
    let full = verbose
        .stdout
        .lines()
        .find(|l| l.starts_with("sandbox: "))
        .expect("a sandbox line");
    assert!(full.len() > sandbox.len(), "{full}\n{sandbox}");
}

#[test]
fn a_compile_error_has_one_row_for_every_case() {
    if !have(&["g++"], "one compile error row") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    suite(dir.path(), 5, 1, None);
    let broken = fixture("ce_syntax.cpp");
    let run = run_in(dir.path(), &["test", ".", "--submission", &broken], "");
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("CE "))
        .collect();
    assert_eq!(rows.len(), 1, "{}", run.stdout);
    assert!(
        rows[0].ends_with("compile error, message at the end"),
        "{}",
        rows[0]
    );
    assert!(run.stdout.contains(": 5 CE"), "{}", run.stdout);
}

#[test]
fn the_judge_would_not_compile_a_submission_of_the_other_kind() {
    if !have(&["python3", "g++"], "would say compile error") {
        return;
    }
    let leetcode_file = judge_with(&[
        "test",
        "cases/acwing166",
        "--submission",
        "tests/fixtures/submissions/ac_leetcode.py",
    ]);
    assert!(
        leetcode_file
            .stdout
            .contains("AcWing would say: Compile Error (it runs the file as a program"),
        "{}",
        leetcode_file.stdout
    );
    let program = judge_with(&[
        "test",
        "cases/leetcode37",
        "--submission",
        "tests/fixtures/submissions/ac_program.cpp",
    ]);
    assert!(
        program
            .stdout
            .contains("LeetCode would say: Compile Error (LeetCode compiles the file"),
        "{}",
        program.stdout
    );
    // A file of the judge's own kind is judged as before.
    let right = judge_with(&[
        "test",
        "cases/leetcode37",
        "--submission",
        "tests/fixtures/submissions/ac_leetcode.py",
    ]);
    assert!(
        right.stdout.contains("LeetCode would say: Accepted"),
        "{}",
        right.stdout
    );
}

#[test]
fn one_test_passed_reads_as_english() {
    let dir = tempfile::tempdir().unwrap();
    suite(dir.path(), 1, 1, Some("acwing166"));
    let run = run_in(dir.path(), &["test", "."], "");
    assert!(
        run.stdout
            .contains("AcWing would say: Accepted, the one test passed"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_rerun_line_reproduces_the_run() {
    let dir = tempfile::tempdir().unwrap();
    suite(dir.path(), 1, 2, None);
    let run = run_in(
        dir.path(),
        &[
            "test",
            "c0.in",
            "--cmd",
            ECHO,
            "--problem",
            "poj3074",
            "--time-limit",
            "2s",
            "--memory-limit",
            "128M",
            "--checker",
            "sudoku",
        ],
        "",
    );
    let rerun = run
        .stdout
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("rerun:"))
        .unwrap_or_else(|| panic!("no rerun line:\n{}", run.stdout))
        .trim();
    for option in [
        "--problem poj3074",
        "--time-limit 2s",
        "--memory-limit 128M",
        "--checker sudoku",
    ] {
        assert!(rerun.contains(option), "{rerun}");
    }
    // Pasted, it judges the case as the run did.
    let words = shell_words::split(rerun).unwrap();
    assert_eq!(words[0], "sudoku-judge");
    let args: Vec<&str> = words[1..]
        .iter()
        .map(String::as_str)
        .chain(["--format", "json"])
        .collect();
    let again = run_in(dir.path(), &args, "").json();
    let case = &cases_of(&again)[0];
    assert_eq!(case["verdict"], "WA", "{case}");
    assert_eq!(case["memory_limit_kb"], 128 * 1024, "{case}");
    assert_eq!(case["time_limit_ms"], 2000.0, "{case}");
}

#[test]
fn junit_goes_where_it_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    suite(dir.path(), 2, 1, None);
    let format = run_in(dir.path(), &["test", ".", "--format", "junit"], "");
    assert!(format.stdout.starts_with("<?xml"), "{}", format.stdout);
    assert!(format.stdout.contains("<testsuite"), "{}", format.stdout);
    // `-` is stdout; the table goes to stderr, and no file `-` is made.
    let dash = run_in(dir.path(), &["test", ".", "--junit", "-"], "");
    assert!(dash.stdout.starts_with("<?xml"), "{}", dash.stdout);
    assert!(
        dash.stderr.contains("2 passed, 0 failed"),
        "{}",
        dash.stderr
    );
    assert!(!dir.path().join("-").exists());
    let both = run_in(
        dir.path(),
        &["test", ".", "--junit", "-", "--json", "-"],
        "",
    );
    assert_eq!(both.code, 2);
    assert!(
        both.stderr
            .contains("only one report can be written to stdout"),
        "{}",
        both.stderr
    );
}

#[test]
fn a_leetcode_file_that_rebinds_the_board_is_told_to_fill_it_in_place() {
    if !have(&["python3"], "rebinding the board") {
        return;
    }
    let (_, report) = super::judge_fixture("wa_rebinds_board.py", "cases/leetcode37/example1", &[]);
    let case = &cases_of(&report)[0];
    assert_eq!(case["verdict"], "WA", "{case}");
    let message = case["message"].as_str().unwrap();
    assert!(
        message.contains("fill in the board it is given, in place")
            && message.contains("solveSudoku returns is ignored"),
        "{message}"
    );
}

#[test]
fn the_shipped_suites_are_judged_wherever_the_judge_runs() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let judge = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args(args)
            .current_dir(work.path())
            .env("XDG_DATA_HOME", home.path())
            .env("SUDOKU_JUDGE_CACHE", super::build_cache())
            .output()
            .unwrap();
        (
            output.status.code().unwrap(),
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    // No cases/ here: the shipped ones, with a note that says so.
    let (code, stdout, stderr) = judge(&["test", "acwing166"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("note: no cases/ here, so judging cases of the suites shipped"),
        "{stderr}"
    );
    assert!(
        stdout.contains(&format!("{} passed", super::shipped("acwing166"))),
        "{stdout}"
    );
    // A copy to edit, next to nothing of the user's replaced.
    let (code, stdout, _) = judge(&["cases", "--out", "mine"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("next: sudoku-judge test mine"), "{stdout}");
    assert!(work.path().join("mine/acwing166/judge.toml").is_file());
    let (code, _, stderr) = judge(&["cases", "--out", "mine"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("exists, so nothing was written"),
        "{stderr}"
    );
    // `new` outside a checkout says a command that works here.
    let elsewhere = tempfile::tempdir().unwrap();
    let (_, stdout, _) = {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args(["new", "--lang", "python", "--problem", "leetcode37"])
            .current_dir(elsewhere.path())
            .env("XDG_DATA_HOME", home.path())
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
            (),
        )
    };
    let next = stdout
        .lines()
        .find_map(|l| l.strip_prefix("next: "))
        .unwrap_or_else(|| panic!("no next line:\n{stdout}"));
    assert_eq!(
        next,
        "sudoku-judge test leetcode37 --submission solution.py"
    );
}
