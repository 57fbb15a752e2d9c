//! `hack`: inputs that make a submission slow or wrong.

use super::{have, judge_fixture_path, judge_with, only_verdict, run_in};

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
    crate::readme::assert_sample_has_every_kind_of_line(
        "hacked: TLE in round",
        &format!("{}{}", hack.stderr, hack.stdout),
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
