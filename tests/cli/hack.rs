//! `hack`: inputs that make a submission slow or wrong.

use super::{have, judge_fixture_path, judge_with, only_verdict, run_in, slow_by};

/// The naive row-major DFS that AcWing 166 times out, as shipped with the
/// suite as its TLE reference.
const NAIVE_DFS: &str = "cases/acwing166/references/tle_naive_dfs.cpp";

/// Seed 1 finds a TLE that holds with the limit raised by half in about
/// seven rounds on a quiet machine (seed 0 takes over thirty). The search
/// keeps the slowest input as measured, and two of its early inputs take
/// within a few milliseconds of each other (about 315 ms), so on a busy
/// machine it may go on from the other one and take longer: the budget
/// leaves room for that. The TLE it finds held with the limit raised by
/// half, so `test` at the limit gives it again.
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
        "60",
        "--seed",
        "1",
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
    let input = format!("{save}/hack-1.in");
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

#[test]
fn a_tle_is_a_hack_only_when_it_repeats_with_the_limit_raised_by_half() {
    if !have(&["python3"], "hack's margin for a TLE") {
        return;
    }
    let hack = |cpu: f64| {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("hacked");
        let command = slow_by(cpu);
        let args = [
            "hack",
            "--cmd",
            &command,
            "--time-limit",
            "1s",
            "--budget",
            "1",
            "--puzzles",
            "1",
            "--save",
            save.to_str().unwrap(),
        ];
        judge_with(&args)
    };
    // About 1.2 s of CPU time (the interpreter's start and the solver's
    // included): over the 1 s limit, within the 1.5 s of the rerun. Too
    // close to call.
    let close = hack(1.1);
    assert_eq!(close.code, 0, "{}\n{}", close.stdout, close.stderr);
    assert!(
        close.stdout.starts_with("no failure in 1 rounds"),
        "{}",
        close.stdout
    );
    assert!(
        close
            .stdout
            .contains("of the 1000 ms limit (round 1): over it, but within 1500 ms on a rerun, too close to call a TLE"),
        "{}",
        close.stdout
    );
    // Past 1.5 s as well: a hack.
    let slow = hack(2.0);
    assert_eq!(slow.code, 1, "{}\n{}", slow.stdout, slow.stderr);
    assert!(
        slow.stdout.starts_with("hacked: TLE in round 1 after ",)
            && slow
                .stdout
                .contains("(and again on a rerun with the limit raised to 1500 ms)"),
        "{}",
        slow.stdout
    );
}
