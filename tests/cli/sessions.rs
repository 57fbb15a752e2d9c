//! LeetCode runs all the tests of a submission in one process, calling a
//! fresh `Solution` for each: globals and statics keep their values. So
//! does sudoku-judge for LeetCode-style files, and says when a case fails
//! only because of what earlier cases left behind.

use std::path::Path;

use serde_json::Value;

use super::{build_cache, cases_of, have, manifest_dir, write, EXAMPLE_IN, EXAMPLE_OUT};

/// The LeetCode example with its digits relabelled by `to` (the digit `d`
/// becomes `to[d - 1]`): another valid board with its answer.
fn relabelled(text: &str, to: &str) -> String {
    text.chars()
        .map(|c| match c.to_digit(10) {
            Some(d @ 1..=9) => to.as_bytes()[d as usize - 1] as char,
            _ => c,
        })
        .collect()
}

/// A suite of three LeetCode cases: the example and two relabellings; the
/// second's first cell is a 9.
fn three_cases(dir: &Path) {
    for (name, to) in [
        ("c1", "123456789"),
        ("c2", "123496785"),
        ("c3", "912345678"),
    ] {
        write(
            dir,
            &format!("{name}/input.txt"),
            &relabelled(EXAMPLE_IN, to),
        );
        write(
            dir,
            &format!("{name}/expected.txt"),
            &relabelled(EXAMPLE_OUT, to),
        );
    }
}

fn judge(dir: &Path, file: &str, extra: &[&str]) -> Value {
    let fixture = manifest_dir().join("tests/fixtures/submissions").join(file);
    let mut args = vec![
        "test",
        dir.to_str().unwrap(),
        "--submission",
        fixture.to_str().unwrap(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(&args)
        .current_dir(manifest_dir())
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .output()
        .unwrap();
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn verdicts(report: &Value) -> Vec<String> {
    cases_of(report)
        .iter()
        .map(|c| c["verdict"].as_str().unwrap_or("ERROR").to_owned())
        .collect()
}

#[test]
fn a_global_never_reset_passes_alone_and_fails_after_other_cases() {
    for (file, tools) in [
        ("wa_keeps_a_global.cpp", &["g++"][..]),
        ("wa_keeps_a_static.java", &["javac", "java"][..]),
    ] {
        if !have(tools, "state kept between cases") {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        three_cases(dir.path());
        let shared = judge(dir.path(), file, &[]);
        assert_eq!(verdicts(&shared), ["AC", "WA", "WA"], "{file}: {shared}");
        for (case, earlier) in [(1, "1 earlier case"), (2, "2 earlier cases")] {
            let message = cases_of(&shared)[case]["message"].as_str().unwrap();
            assert!(
                message.contains(&format!(
                    "it passes alone, and fails after {earlier}: the solution keeps state \
                     between tests (a global or static not reset)"
                )),
                "{file}: {message}"
            );
        }
        // One process per case, as before LeetCode's model: all pass.
        let fresh = judge(dir.path(), file, &["--fresh-process"]);
        assert_eq!(verdicts(&fresh), ["AC", "AC", "AC"], "{file}: {fresh}");
    }
}

#[test]
fn after_a_crash_the_next_cases_get_a_new_process_and_say_so() {
    if !have(&["python3"], "a new process after a crash") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    three_cases(dir.path());
    let report = judge(dir.path(), "re_crashes_on_a_nine.py", &[]);
    assert_eq!(verdicts(&report), ["AC", "RE", "AC"], "{report}");
    let crash = &cases_of(&report)[1];
    assert!(
        crash["message"]
            .as_str()
            .unwrap()
            .contains("raised ValueError: a nine in the corner"),
        "{crash}"
    );
    let after = &cases_of(&report)[2];
    let notes = after["notes"].as_array().unwrap();
    // Said of the run before, which a rerun of one case has too: never of
    // "the case before", which it has not.
    assert!(
        notes.iter().any(|n| n.as_str().unwrap()
            == "a new process from here, with the solution's state reset: the run before \
                ended its process (it crashed)"),
        "{after}"
    );
    assert!(cases_of(&report)[0]["notes"].as_array().unwrap().is_empty());
}

#[test]
fn the_rerun_line_of_a_failure_kept_state_caused_reproduces_it() {
    if !have(&["g++"], "the rerun line of a state failure") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    three_cases(dir.path());
    let fixture = manifest_dir().join("tests/fixtures/submissions/wa_keeps_a_global.cpp");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args(args)
            .current_dir(manifest_dir())
            .env("SUDOKU_JUDGE_CACHE", build_cache())
            .output()
            .unwrap()
    };
    let table = run(&[
        "test",
        dir.path().to_str().unwrap(),
        "--submission",
        fixture.to_str().unwrap(),
    ]);
    let table = String::from_utf8(table.stdout).unwrap();
    let reruns: Vec<&str> = table
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("rerun:"))
        .collect();
    assert_eq!(reruns.len(), 2, "{table}");
    // The case that failed after one other: its rerun judges that one
    // first, in one process, and fails as the run did.
    let c1 = dir.path().join("c1/input.txt");
    let c2 = dir.path().join("c2/input.txt");
    let words = shell_words::split(reruns[0].trim()).unwrap();
    assert_eq!(words[..2], ["sudoku-judge", "test"], "{table}");
    assert_eq!(
        words[2..4],
        [c1.to_str().unwrap(), c2.to_str().unwrap()],
        "{table}"
    );
    let mut again: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    again.extend(["--format", "json"]);
    let output = run(&again);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(verdicts(&report), ["AC", "WA"], "{report}");
}
