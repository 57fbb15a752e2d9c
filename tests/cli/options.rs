//! Options of `test` for the practice loop.

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
    let run = judge(dir.path(), &["--fail-fast", "--json", "out.json"]);
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
    assert!(run.stdout.contains("left out by --quiet"), "{}", run.stdout);
}
