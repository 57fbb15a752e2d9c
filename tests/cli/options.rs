//! Options of `test` for the practice loop: `--fail-fast`, `--quiet` and
//! named baselines (`--save-baseline NAME`, `--baseline NAME`).

use std::path::Path;

use super::{have, manifest_dir, run_in, write, Run, PUZZLE};

/// The HTML report's suite without its slow case: `ac` and `zz` are
/// answered, `wa` is not.
fn quick_suite() -> tempfile::TempDir {
    let dir = super::report::suite();
    std::fs::remove_file(dir.path().join("cases/tle.in")).unwrap();
    write(dir.path(), "cases/zz.in", &format!("{PUZZLE}\nend\n"));
    dir
}

fn judge(dir: &Path, extra: &[&str]) -> Run {
    // A limit that a busy machine's Python start-up stays far within.
    let mut args = vec![
        "test",
        "cases",
        "--cmd",
        "python3 prog.py",
        "--time-limit",
        "3s",
    ];
    args.extend_from_slice(extra);
    run_in(dir, &args, "")
}

/// The lines of the first `text` block after `heading` in a page of the
/// book.
fn documented(page: &str, heading: &str) -> Vec<String> {
    let text = std::fs::read_to_string(manifest_dir().join("docs").join(page)).unwrap();
    let section = &text[text
        .find(heading)
        .unwrap_or_else(|| panic!("{page} has no {heading}"))..];
    let block = &section[section.find("```text\n").expect("an example") + 8..];
    // An example in a list item is indented with it.
    let block = &block[..block.find("```").unwrap()];
    block
        .trim_end_matches(' ')
        .lines()
        .map(|l| l.strip_prefix("  ").unwrap_or(l).to_string())
        .collect()
}

#[test]
fn fail_fast_stops_at_the_first_case_not_accepted_and_lists_the_rest() {
    if !have(
        &["python3"],
        "fail_fast_stops_at_the_first_case_not_accepted",
    ) {
        return;
    }
    let dir = quick_suite();
    let run = judge(
        dir.path(),
        &["--fail-fast", "--json", "out.json", "--junit", "out.xml"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    for line in documented("judging.md", "**`--fail-fast`**") {
        assert!(
            run.stdout.contains(&line),
            "{line:?} not in:\n{}",
            run.stdout
        );
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.json")).unwrap())
            .unwrap();
    let ids: Vec<&str> = super::cases_of(&report)
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ac", "wa"]);
    assert_eq!(report["not_run"], serde_json::json!(["zz"]));
    assert_eq!(report["failed"], 1);
    // JUnit lists it too, as a skipped testcase that says where the run
    // stopped.
    let xml = std::fs::read_to_string(dir.path().join("out.xml")).unwrap();
    assert!(
        xml.contains(
            "<testcase name=\"zz\" classname=\"cases\">\n            \
             <skipped message=\"not run: --fail-fast stopped at wa\"/>"
        ),
        "{xml}"
    );
    assert!(xml.contains("tests=\"3\""), "{xml}");
    assert!(xml.contains("skipped=\"1\""), "{xml}");

    // Without it, every case is judged and none is said not to be run.
    let run = judge(dir.path(), &["--format", "json"]);
    assert_eq!(super::cases_of(&run.json()).len(), 3);
    assert_eq!(run.json()["not_run"], serde_json::json!([]));
}

#[test]
fn quiet_shows_only_the_failing_rows_and_the_summary() {
    if !have(&["python3"], "quiet_shows_only_the_failing_rows") {
        return;
    }
    let dir = quick_suite();
    let run = judge(dir.path(), &["--quiet"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let documented = documented("judging.md", "**`--quiet`**");
    let shown: Vec<&str> = run.stdout.lines().collect();
    // The documented example, its times aside.
    assert_eq!(shown.len(), documented.len(), "{}", run.stdout);
    for (shown, documented) in shown.iter().zip(&documented) {
        let words = |l: &str| -> Vec<String> {
            l.split_whitespace()
                .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
                .filter(|w| !["ms", "s", "KB", "MB"].contains(w))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(words(shown), words(documented), "{}", run.stdout);
    }
    assert!(!run.stdout.contains("AC "), "{}", run.stdout);
    assert!(!run.stdout.contains("+---------+"), "{}", run.stdout);
    assert!(!run.stdout.contains("failures:"), "{}", run.stdout);
}

#[test]
fn a_named_baseline_stays_while_later_runs_compare_with_it() {
    if !have(&["python3"], "a_named_baseline_stays") {
        return;
    }
    let dir = quick_suite();
    // The wrong answer mended: every case accepted.
    let prog = dir.path().join("prog.py");
    let good = std::fs::read_to_string(&prog).unwrap();
    let broken = good.clone();
    let answer = super::ANSWER;
    let wrong_line = good
        .lines()
        .find(|l| l.trim_start().starts_with("print('") && !l.contains(answer))
        .unwrap()
        .to_string();
    std::fs::write(
        &prog,
        good.replace(&wrong_line, &format!("        print('{answer}')")),
    )
    .unwrap();

    let run = judge(dir.path(), &["--save-baseline", "good"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let said = documented("judging.md", "## Baselines by name");
    for line in &said {
        assert!(
            run.stderr.contains(line.as_str()),
            "{line:?} not in {}",
            run.stderr
        );
    }
    assert!(dir
        .path()
        .join(".sudoku-judge/baselines/good.json")
        .is_file());

    // Broken again: two runs, each still compared with the good one.
    std::fs::write(&prog, &broken).unwrap();
    for _ in 0..2 {
        let run = judge(dir.path(), &["--baseline", "good", "--format", "json"]);
        assert_eq!(run.code, 1);
        let report = run.json();
        assert_eq!(report["baseline"]["source"], "baseline good");
        assert_eq!(report["baseline"]["broken"], 1, "{report}");
    }
    // `--baseline last` would have seen no change the second time.
    let run = judge(dir.path(), &["--baseline", "last", "--format", "json"]);
    assert_eq!(run.json()["baseline"]["broken"], 0);

    let run = judge(dir.path(), &["--baseline", "nosuch"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no baseline saved as nosuch")
            && run.stderr.contains("saved here: good")
            && run.stderr.contains("--save-baseline nosuch"),
        "{}",
        run.stderr
    );
    for name in ["last", "../x", ""] {
        let run = judge(dir.path(), &["--save-baseline", name]);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(run.stderr.contains("--save-baseline"), "{}", run.stderr);
    }
}
