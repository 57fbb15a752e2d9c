//! The practice loop: per-puzzle times of programs.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

use super::{build_cache, cases_of, have, manifest_dir, write, Run, ANSWER, HANG_GUARD, PUZZLE};

/// Runs the binary in `dir`, with the tests' build cache.
fn judge_in(dir: &Path, args: &[&str]) -> Run {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(args)
        .current_dir(dir)
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(started.elapsed() < HANG_GUARD, "sudoku-judge {args:?} hung");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn fixture(name: &str) -> String {
    manifest_dir()
        .join("tests/fixtures/submissions")
        .join(name)
        .display()
        .to_string()
}

/// A suite of one AcWing case, `cases/a.in`, of `puzzles` copies of the
/// LeetCode example.
fn suite(puzzles: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "cases/a.in",
        &format!("{}end\n", format!("{PUZZLE}\n").repeat(puzzles)),
    );
    write(
        dir.path(),
        "cases/a.out",
        &format!("{ANSWER}\n").repeat(puzzles),
    );
    dir
}

#[test]
fn a_program_that_answers_as_it_goes_gets_per_puzzle_times() {
    if !have(&["python3"], "per-puzzle times") {
        return;
    }
    let dir = suite(5);
    let run = judge_in(
        dir.path(),
        &[
            "test",
            "cases",
            "--submission",
            &fixture("ac_slow_on_puzzle_3.py"),
            "--time-limit",
            "10s",
            "--json",
            "report.json",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("slowest: puzzle 3, input line 3, "),
        "{}",
        run.stdout
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    let case = &cases_of(&report)[0];
    assert_eq!(case["slowest_puzzle"]["puzzle"], 3, "{case}");
    assert_eq!(case["slowest_puzzle"]["line"], 3, "{case}");
    let spread = &case["puzzle_ms"];
    let (median, max) = (
        spread["median"].as_f64().unwrap(),
        spread["max"].as_f64().unwrap(),
    );
    assert!(max > median * 3.0, "the sleep stands out: {spread}");
    // The spread comes from a histogram exact to three digits.
    let slowest_ms = case["slowest_puzzle"]["ms"].as_f64().unwrap();
    assert!((slowest_ms - max).abs() <= max / 100.0, "{case}");

    // A program that prints all its answers at its end has no per-puzzle
    // times to give: none are made up.
    let buffered = judge_in(
        dir.path(),
        &[
            "test",
            "cases",
            "--submission",
            &fixture("ac_program.py"),
            "--format",
            "json",
        ],
    );
    let report = buffered.json();
    let case = &cases_of(&report)[0];
    assert_eq!(case["verdict"], "AC", "{case}");
    assert_eq!(case["puzzle_ms"], Value::Null, "{case}");
}
