//! `test` at scale: --jobs, --partition, filters, --failed, JUnit and
//! JSON files, and huge inputs judged in bounded memory.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

use serde_json::Value;
use sudoku_judge::case;

use super::{
    have, interrupted_run, manifest_dir, run, run_in, shipped, verdicts, write, Run, ANSWER, PUZZLE,
};

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
        3,
        "a header, then a and b; c has no blank, so it passes: {record}"
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
