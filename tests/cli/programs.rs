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
            "--time-limit",
            "200ms",
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
        message.contains("its output may be buffered") && message.contains("fflush(stdout)"),
        "{message}"
    );
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
