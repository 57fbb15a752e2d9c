//! `calibrate`: the suites' limits reproduce the real judges' verdicts.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{allow, build_cache, have, manifest_dir, on_terminal_with, run_in_env};

/// A suite of AcWing's sample at 500 ms under `dir`, with an AC and a TLE
/// reference in C++; and its `judge.toml`.
fn suite_with_references(dir: &Path) -> (PathBuf, &'static str) {
    let suite = dir.join("suite");
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
    // References are programs the suite names: they run once allowed.
    allow(&suite, &dir.join("data"));
    (suite, toml)
}

#[test]
fn calibrate_says_whether_the_limit_reproduces_the_real_verdicts() {
    if !have(&["g++"], "calibrate_says_whether_the_limit_reproduces") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (suite, toml) = suite_with_references(dir.path());
    let calibrate = |extra: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"));
        command
            .arg("calibrate")
            .arg(&suite)
            .args(extra)
            .env("SUDOKU_JUDGE_CACHE", build_cache())
            .env("XDG_DATA_HOME", dir.path().join("data"));
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
    // A changed file is allowed anew.
    let (code, stdout) = calibrate(&[]);
    assert_eq!(code, 2, "{stdout}");
    allow(&suite, &dir.path().join("data"));
    let (code, stdout) = calibrate(&[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("NOT reproduced"), "{stdout}");
    assert!(
        stdout.contains("no time limit separates the references"),
        "{stdout}"
    );

    // No references: an error naming the file.
    fs::write(suite.join("judge.toml"), "time_limit = \"1s\"\n").unwrap();
    let run = run_in_env(
        &manifest_dir(),
        &["calibrate", suite.to_str().unwrap()],
        "",
        &[("XDG_DATA_HOME", &dir.path().join("data"))],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("judge.toml lists no [[reference]]"),
        "{}",
        run.stderr
    );
}

/// Calibrating takes seconds a reference: on a terminal a line says which
/// reference is built or judged, and on which case; in a pipe nothing is
/// drawn.
#[test]
fn calibrate_says_what_it_is_doing_on_a_terminal_and_nothing_in_a_pipe() {
    if !have(&["g++"], "calibrate's progress") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (suite, _) = suite_with_references(dir.path());
    let data = dir.path().join("data");
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .arg("calibrate")
        .arg(&suite)
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    // `on_terminal` runs with the project's own build cache.
    let Some(screen) = on_terminal_with(
        80,
        &["calibrate", suite.to_str().unwrap()],
        None,
        &[("XDG_DATA_HOME", &data)],
    ) else {
        return;
    };
    let drawn: Vec<&str> = screen
        .split("\x1b[2K")
        .map(|rest| rest.split(['\r', '\n', '\x1b']).next().unwrap())
        .filter(|line| line.contains(" calibrate "))
        .collect();
    for doing in [
        "judging ac_program.cpp",
        "judging tle_endless_loop.cpp",
        "sample",
    ] {
        assert!(
            drawn.iter().any(|line| line.contains(doing)),
            "never said {doing:?}: {drawn:?}"
        );
    }
    for line in drawn {
        assert!(line.chars().count() <= 77, "{line:?}");
    }
    assert!(
        screen.contains("reproduces every real verdict"),
        "{screen:?}"
    );
}
