//! Programs get their input as the judges send it, and a program that
//! fails in a common way is told why in words that help.

use std::path::{Path, PathBuf};

use super::{cases_of, have, run_in, write, ANSWER, PUZZLE};

/// Builds a fixture of `tests/fixtures/programs` with the system's `cc`.
fn build(name: &str, dir: &Path) -> PathBuf {
    super::build_c("programs", name, dir)
}

#[test]
fn a_case_with_a_byte_order_mark_and_crlf_reaches_a_program_as_a_judge_sends_it() {
    if !have(&["cc"], "byte-order mark") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "bom.in",
        &format!("\u{feff}{PUZZLE}\r\n{PUZZLE}\r\nend\r\n"),
    );
    write(dir.path(), "bom.out", &format!("{ANSWER}\n{ANSWER}\n"));
    let program = build("ac_reads_with_scanf.c", dir.path());
    let run = run_in(
        dir.path(),
        &[
            "test",
            "bom.in",
            "--cmd",
            program.to_str().unwrap(),
            "--format",
            "json",
        ],
        "",
    );
    let report = run.json();
    assert_eq!(cases_of(&report)[0]["verdict"], "AC", "{report}");
    assert_eq!(run.code, 0);
}

#[test]
fn a_command_that_does_not_exist_fails_once_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a", "b", "c"] {
        write(
            dir.path(),
            &format!("{name}.in"),
            &format!("{PUZZLE}\nend\n"),
        );
    }
    for (command, says) in [
        (
            "./no-such-program",
            "`./no-such-program` (in --cmd) does not exist",
        ),
        (
            "no-such-program-anywhere",
            "`no-such-program-anywhere` (in --cmd) is not on PATH",
        ),
    ] {
        let run = run_in(dir.path(), &["test", ".", "--cmd", command], "");
        assert_eq!(run.code, 2, "{}", run.stdout);
        assert_eq!(run.stderr.matches("error:").count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains(says), "{}", run.stderr);
        assert!(run.stdout.is_empty(), "no case was judged: {}", run.stdout);
    }
}

#[test]
fn a_program_killed_before_its_buffered_answers_show_is_told_to_flush() {
    if !have(&["cc"], "buffered output") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\n{PUZZLE}\nend\n"));
    let program = build("tle_buffers_its_answers.c", dir.path());
    let run = run_in(
        dir.path(),
        &[
            "test",
            "a.in",
            "--cmd",
            program.to_str().unwrap(),
            // It spins for ever: TLE at any limit, and a generous one
            // leaves a busy machine no race to win.
            "--time-limit",
            "1s",
            "--format",
            "json",
        ],
        "",
    );
    let report = run.json();
    let case = &cases_of(&report)[0];
    assert_eq!(case["verdict"], "TLE", "{report}");
    let message = case["message"].as_str().unwrap();
    assert!(message.contains("0 of 2 puzzles answered"), "{message}");
    assert!(
        message.contains("if its output is buffered") && message.contains("flush after each"),
        "{message}"
    );
}

/// Python holds what `print` writes into a pipe: a script killed with its
/// answers in that buffer is told how to flush in Python, never in C++'s
/// words.
#[test]
fn a_python_script_killed_with_its_answers_in_its_buffer_is_told_to_flush_in_python() {
    if !have(&["python3"], "Python's buffered stdout") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\n{PUZZLE}\nend\n"));
    write(
        dir.path(),
        "main.py",
        "import sys\nfor line in sys.stdin:\n    print(line.strip())\nwhile True:\n    pass\n",
    );
    let run = run_in(
        dir.path(),
        &[
            "test",
            "a.in",
            "--submission",
            "main.py",
            // It spins for ever once it has echoed the input: TLE at any
            // limit, and a generous one leaves a busy machine no race to
            // win: what stops it (the CPU limit, or on a loaded machine
            // the wall-clock cap) says TLE either way.
            "--time-limit",
            "1s",
            "--format",
            "json",
        ],
        "",
    );
    let report = run.json();
    let case = &cases_of(&report)[0];
    assert_eq!(case["verdict"], "TLE", "{report}");
    let message = case["message"].as_str().unwrap();
    assert!(message.contains("0 of 2 puzzles answered"), "{message}");
    assert!(
        message.contains("Python 3 holds what a program prints into a pipe")
            && message.contains("with print(..., flush=True)"),
        "{message}"
    );
    assert!(!message.contains("endl"), "{message}");
}

#[test]
fn a_case_without_end_still_sends_the_end_a_judge_sends() {
    if !have(&["cc"], "a case without end") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // No `end`, and no newline after the last puzzle either.
    write(dir.path(), "a.in", &format!("{PUZZLE}\n{PUZZLE}"));
    write(dir.path(), "a.out", &format!("{ANSWER}\n{ANSWER}\n"));
    let program = build("ac_reads_until_end.c", dir.path());
    let run = run_in(
        dir.path(),
        &["test", "a.in", "--cmd", program.to_str().unwrap()],
        "",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.lines().any(|l| l.starts_with("AC ")),
        "{}",
        run.stdout
    );
    // The case is still told to have no `end`.
    assert!(
        run.stdout.contains("the input has no `end` line"),
        "{}",
        run.stdout
    );
}

/// A suite of `puzzles` copies of the example puzzle as AcWing lines,
/// judged as `problem`.
fn acwing_suite(dir: &Path, problem: &str, puzzles: usize) {
    write(
        dir,
        "a.in",
        &format!("{}end\n", format!("{PUZZLE}\n").repeat(puzzles)),
    );
    write(dir, "a.out", &format!("{ANSWER}\n").repeat(puzzles));
    write(dir, "judge.toml", &format!("problem = \"{problem}\"\n"));
}

#[test]
fn output_besides_the_answers_is_a_wrong_answer_as_on_the_judges() {
    if !have(&["cc"], "extra output lines") {
        return;
    }
    for (problem, judge) in [("acwing166", "AcWing"), ("poj3074", "POJ")] {
        let dir = tempfile::tempdir().unwrap();
        acwing_suite(dir.path(), problem, 2);
        for (fixture, says) in [
            (
                "wa_echoes_end.c",
                "both answers are right, but the output echoes the input's `end` (line 3)",
            ),
            (
                "wa_prints_debug_lines.c",
                "both answers are right, but the output has 2 other lines besides (the first, \
                 line 1: `solving puzzle 1`)",
            ),
        ] {
            let program = build(fixture, dir.path());
            let run = run_in(
                dir.path(),
                &[
                    "test",
                    ".",
                    "--cmd",
                    program.to_str().unwrap(),
                    "--json",
                    "report.json",
                ],
                "",
            );
            assert_eq!(run.code, 1, "{fixture} on {problem}: {}", run.stdout);
            assert!(
                run.stdout
                    .contains(&format!("{judge} would say: Wrong Answer on test 1 of 1")),
                "{fixture} on {problem}: {}",
                run.stdout
            );
            let report: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(dir.path().join("report.json")).unwrap(),
            )
            .unwrap();
            let case = &cases_of(&report)[0];
            assert_eq!(case["verdict"], "WA", "{fixture} on {problem}: {case}");
            let message = case["message"].as_str().unwrap();
            assert!(
                message.starts_with(says),
                "{fixture} on {problem}: {message}"
            );
            assert_eq!(case["reason"]["wrong"], "extra_lines", "{case}");
        }
        let debug = build("wa_prints_debug_lines.c", dir.path());
        let run = run_in(
            dir.path(),
            &["test", ".", "--cmd", debug.to_str().unwrap()],
            "",
        );
        assert!(
            run.stdout.contains("write debugging output to stderr"),
            "{}",
            run.stdout
        );
    }
}

/// The per-puzzle times the one case of `report` says: its spread's
/// slowest and the slowest puzzle named (each when said), its time, and how
/// many puzzles it timed one by one.
fn puzzle_times(report: &serde_json::Value) -> Option<(Option<f64>, Option<f64>, f64, u64)> {
    let case = &cases_of(report)[0];
    assert_eq!(case["verdict"], "AC", "{case}");
    let max = case["puzzle_ms"]["max"].as_f64();
    let slowest = case["slowest_puzzle"]["ms"].as_f64();
    if max.is_none() && slowest.is_none() {
        return None;
    }
    Some((
        max,
        slowest,
        case["time_ms"].as_f64().unwrap(),
        case["puzzles_timed"].as_u64().unwrap_or(0),
    ))
}

#[test]
fn a_puzzles_time_is_its_own_and_never_more_than_the_cases() {
    if !have(&["cc"], "per-puzzle times") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let shipped = super::manifest_dir().join("cases/acwing166/hard.in");
    std::fs::copy(&shipped, dir.path().join("hard.in")).unwrap();
    std::fs::copy(&shipped, dir.path().join("again.in")).unwrap();
    let flushes = build("ac_flushes_each_answer.c", dir.path());
    let buffers = build("ac_buffers_its_answers.c", dir.path());
    let mut timed_runs = 0;
    for jobs in ["1", "2"] {
        for _ in 0..3 {
            let judged = |program: &Path| {
                run_in(
                    dir.path(),
                    &[
                        "test",
                        "hard.in",
                        "again.in",
                        "--cmd",
                        program.to_str().unwrap(),
                        "--jobs",
                        jobs,
                        "--format",
                        "json",
                    ],
                    "",
                )
                .json()
            };
            // What is said is each puzzle's own: none over the case's
            // time. How much is said depends on how many answers came
            // alone, which depends on the machine's load.
            if let Some((max, slowest, time, timed)) = puzzle_times(&judged(&flushes)) {
                for said in [max, slowest].into_iter().flatten() {
                    assert!(said <= time, "a puzzle of {said} ms in a case of {time} ms");
                }
                if max.is_some() {
                    assert!(timed >= 5, "{timed} of 9 puzzles timed one by one");
                }
                timed_runs += 1;
            }
            // Answers that arrive together have no time of their own.
            assert_eq!(puzzle_times(&judged(&buffers)), None, "--jobs {jobs}");
        }
    }
    // A program that flushes each answer is timed puzzle by puzzle.
    assert!(timed_runs > 0, "none of 6 runs timed a puzzle");
}
