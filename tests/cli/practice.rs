//! The practice loop: comparing a run with an earlier one, per-puzzle times
//! of programs, and watching files to judge again.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

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
fn a_baseline_says_what_got_slower_and_what_broke() {
    if !have(&["python3"], "baseline") {
        return;
    }
    let dir = suite(2);
    let base = judge_in(
        dir.path(),
        &[
            "test",
            "cases",
            "--submission",
            &fixture("ac_program.py"),
            "--json",
            "base.json",
        ],
    );
    assert_eq!(base.code, 0, "{}{}", base.stdout, base.stderr);

    // Slower, still accepted: exit 0, the case and the summary say so.
    let slower = judge_in(
        dir.path(),
        &[
            "test",
            "cases",
            "--submission",
            &fixture("ac_burns_cpu.py"),
            "--time-limit",
            "10s",
            "--baseline",
            "base.json",
            "--json",
            "slower.json",
        ],
    );
    assert_eq!(slower.code, 0, "{}{}", slower.stdout, slower.stderr);
    let line = slower
        .stdout
        .lines()
        .find(|l| l.starts_with("AC ") && l.contains(" a "))
        .unwrap_or_else(|| panic!("no line for the case:\n{}", slower.stdout));
    assert!(line.contains("x slower"), "{line}");
    assert!(
        slower
            .stdout
            .contains("compared with base.json: 0 fixed, 0 broken, 0 faster, 1 slower"),
        "{}",
        slower.stdout
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("slower.json")).unwrap())
            .unwrap();
    let case = &cases_of(&report)[0];
    assert_eq!(case["baseline"]["verdict"], "AC", "{case}");
    assert_eq!(case["baseline"]["time_change"], "slower", "{case}");
    let before = case["baseline"]["time_ms"].as_f64().unwrap();
    assert!(case["time_ms"].as_f64().unwrap() > before * 1.3, "{case}");
    assert_eq!(report["baseline"]["slower"], 1, "{report}");

    // Broken, against the last run here (the slower one): exit 1.
    let broken = judge_in(
        dir.path(),
        &[
            "test",
            "cases",
            "--submission",
            &fixture("re_exit_code.py"),
            "--baseline",
            "last",
        ],
    );
    assert_eq!(broken.code, 1, "{}{}", broken.stdout, broken.stderr);
    assert!(broken.stdout.contains("AC → RE"), "{}", broken.stdout);
    assert!(
        broken
            .stdout
            .contains("compared with the last run: 0 fixed, 1 broken"),
        "{}",
        broken.stdout
    );
    assert!(
        broken
            .stdout
            .contains("broken: 1 case accepted in the last run is not any more"),
        "{}",
        broken.stdout
    );
}

#[test]
fn a_missing_baseline_says_what_to_do() {
    let dir = suite(1);
    let run = judge_in(dir.path(), &["test", "cases", "--baseline", "last"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no run is recorded here")
            && run.stderr.contains("run `sudoku-judge test` here first"),
        "{}",
        run.stderr
    );
    write(dir.path(), "not-a-report.json", "[1, 2]");
    let run = judge_in(
        dir.path(),
        &["test", "cases", "--baseline", "not-a-report.json"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--json FILE"),
        "says how to write one: {}",
        run.stderr
    );
}

/// The JSON report of `fixture` judged on a case of five puzzles, which
/// it answers all right, its table row naming puzzle 3 as the slowest.
fn judged_slow_on_puzzle_3(fixture_name: &str) -> Value {
    let dir = suite(5);
    let run = judge_in(
        dir.path(),
        &[
            "test",
            "cases",
            "--submission",
            &fixture(fixture_name),
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
    serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap()
}

#[test]
fn a_functions_slow_board_is_named_by_the_time_its_answer_took() {
    if !have(&["python3"], "per-puzzle times of a function") {
        return;
    }
    let report = judged_slow_on_puzzle_3("ac_leetcode_slow_on_board_3.py");
    let case = &cases_of(&report)[0];
    let slowest_ms = case["slowest_puzzle"]["ms"].as_f64().unwrap();
    let time_ms = case["time_ms"].as_f64().unwrap();
    // The clock is read as each answer arrives, a moment after the driver
    // took up the next board: a board's time may lose a few milliseconds
    // to the one after it, never more than the case's time in all.
    assert!(
        (300.0..=time_ms).contains(&slowest_ms),
        "about the 0.4 s it spent, within the case's time: {case}"
    );
}

#[test]
fn a_program_that_answers_as_it_goes_gets_per_puzzle_times() {
    if !have(&["python3"], "per-puzzle times") {
        return;
    }
    let report = judged_slow_on_puzzle_3("ac_slow_on_puzzle_3.py");
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
    // times to give: none are made up, even for two puzzles.
    let two = suite(2);
    let buffered = judge_in(
        two.path(),
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

/// A program that answers every puzzle with 81 ones, and says so on stderr.
const ALL_ONES: &str =
    "import sys\nfor line in sys.stdin:\n    if line.strip() == 'end':\n        \
                        break\n    print('1' * 81)\nprint('all ones', file=sys.stderr)\n";

#[test]
fn keep_saves_what_a_failing_case_was_given_and_gave_back() {
    if !have(&["python3"], "keep") {
        return;
    }
    let dir = suite(2);
    write(dir.path(), "wa.py", ALL_ONES);
    let run = judge_in(
        dir.path(),
        &["test", "cases", "--submission", "wa.py", "--keep", "kept"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("kept what 1 case not accepted was given and gave back in kept/"),
        "{}",
        run.stderr
    );
    let kept = dir.path().join("kept/a");
    let read = |name: &str| std::fs::read_to_string(kept.join(name)).unwrap();
    assert_eq!(read("a.in"), format!("{PUZZLE}\n{PUZZLE}\nend\n"));
    assert_eq!(read("a.out"), format!("{ANSWER}\n{ANSWER}\n"));
    assert_eq!(
        read("output.txt"),
        format!("{}\n", "1".repeat(81)).repeat(2)
    );
    assert_eq!(read("stderr.txt"), "all ones\n");
    assert!(
        read("verdict.txt").starts_with("WA a\n"),
        "{}",
        read("verdict.txt")
    );

    // A directory of the user's is never written into.
    write(dir.path(), "mine/notes.txt", "mine");
    let refused = judge_in(
        dir.path(),
        &["test", "cases", "--submission", "wa.py", "--keep", "mine"],
    );
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("never overwritten") && refused.stderr.contains("--keep"),
        "{}",
        refused.stderr
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("mine")).unwrap().count(),
        1,
        "nothing added"
    );
}

/// The answers a driver wrote on fd 3 (after its `ready`), as 81-digit
/// lines.
fn driver_answers(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.len() == 89 && l.matches('/').count() == 8)
        .map(|l| l.replace('/', ""))
        .collect()
}

#[test]
fn an_exported_driver_builds_and_answers_as_the_judge_judged() {
    for (file, tools) in [
        ("ac_leetcode.cpp", &["g++"][..]),
        ("ac_leetcode.py", &["python3"][..]),
    ] {
        if !have(tools, "driver export") {
            continue;
        }
        let dir = suite(2);
        let judged = judge_in(
            dir.path(),
            &[
                "test",
                "cases",
                "--submission",
                &fixture(file),
                "--format",
                "json",
            ],
        );
        assert_eq!(
            cases_of(&judged.json())[0]["verdict"],
            "AC",
            "{}",
            judged.stdout
        );
        let export = judge_in(
            dir.path(),
            &[
                "driver",
                &fixture(file),
                "--out",
                "debug",
                "--case",
                "cases/a.in",
            ],
        );
        assert_eq!(export.code, 0, "{}{}", export.stdout, export.stderr);
        assert!(
            export.stdout.contains("sh debug/run.sh"),
            "{}",
            export.stdout
        );
        let boards = std::fs::read_to_string(dir.path().join("debug/board.txt")).unwrap();
        assert_eq!(boards, format!("{PUZZLE}\n{PUZZLE}\nend\n"));
        // Run from elsewhere, as a user would.
        let output = Command::new("sh")
            .arg("debug/run.sh")
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{file}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(stdout.starts_with("ready\n"), "{file}: {stdout}");
        // The judge accepted this file on these boards, whose solution is
        // unique: it got these answers.
        assert_eq!(
            driver_answers(&stdout),
            vec![ANSWER.to_string(), ANSWER.to_string()],
            "{file}: {stdout}"
        );

        // Exporting again never overwrites what is there.
        // The build's copy of the user's file: C++'s is inside the
        // driver's `main.cpp`, Python's is `solution.py` whatever its name.
        let source = dir.path().join("debug").join(if file.ends_with(".cpp") {
            "main.cpp"
        } else {
            "solution.py"
        });
        std::fs::write(&source, "// edited while debugging\n").unwrap();
        let again = judge_in(dir.path(), &["driver", &fixture(file), "--out", "debug"]);
        assert_eq!(again.code, 2, "{}", again.stdout);
        assert!(
            again.stderr.contains("already holds")
                && again.stderr.contains("never overwrites a file"),
            "{}",
            again.stderr
        );
        assert_eq!(
            std::fs::read_to_string(&source).unwrap(),
            "// edited while debugging\n"
        );
    }
}

/// A LeetCode file with a local harness is exported as the judge judges it
/// on LeetCode's problem: the class inside the driver, the harness left out.
#[test]
fn an_exported_driver_leaves_a_local_harness_out() {
    if !have(&["g++"], "driver export of a file with a harness") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let export = judge_in(
        dir.path(),
        &[
            "driver",
            &fixture("ac_leetcode_with_main.cpp"),
            "--out",
            "debug",
        ],
    );
    assert_eq!(export.code, 0, "{}{}", export.stdout, export.stderr);
    let main = std::fs::read_to_string(dir.path().join("debug/main.cpp")).unwrap();
    assert!(main.contains("class Solution"), "{main}");
    assert!(!main.contains("vector<string> rows"), "{main}");
    let output = Command::new("sh")
        .arg("debug/run.sh")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("ready\n"), "{stdout}");
    assert_eq!(driver_answers(&stdout), [ANSWER], "{stdout}");
}

/// The puzzles of an AcWing input, as 81-character lines.
fn puzzle_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.len() == 81)
        .map(str::to_string)
        .collect()
}

/// The saved input named on a `saved:` line.
fn saved_input(stdout: &str, dir: &Path) -> std::path::PathBuf {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("saved:"))
        .unwrap_or_else(|| panic!("nothing saved:\n{stdout}"));
    dir.join(line.split_whitespace().nth(1).unwrap())
}

#[test]
fn stress_against_a_brute_force_finds_and_shrinks_a_planted_bug() {
    if !have(&["g++", "python3"], "stress --brute") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = judge_in(
        dir.path(),
        &[
            "stress",
            "--submission",
            &fixture("wa_stale_state.cpp"),
            "--brute",
            &fixture("ac_program.py"),
            "--rounds",
            "3",
            "--puzzles",
            "3",
            "--time-limit",
            "5s",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("against the brute force ") && run.stderr.contains("ac_program.py"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("round 1 failed with WA"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("-> 2 puzzles"), "{}", run.stdout);
    assert!(
        run.stdout.contains("--brute "),
        "the replay names it: {}",
        run.stdout
    );
    // The saved case holds the brute force's answers: the brute force is
    // accepted on it, the planted bug is not.
    let saved = saved_input(&run.stdout, dir.path());
    assert_eq!(puzzle_lines(&saved).len(), 2);
    let saved = saved.display().to_string();
    for (file, verdict) in [("ac_program.py", "AC"), ("wa_stale_state.cpp", "WA")] {
        let judged = judge_in(
            dir.path(),
            &[
                "test",
                &saved,
                "--submission",
                &fixture(file),
                "--format",
                "json",
            ],
        );
        assert_eq!(cases_of(&judged.json())[0]["verdict"], verdict, "{file}");
    }

    // A brute force that is not accepted cannot say what is right.
    let broken = judge_in(
        dir.path(),
        &[
            "stress",
            "--submission",
            &fixture("wa_stale_state.cpp"),
            "--brute",
            &fixture("re_exit_code.py"),
            "--rounds",
            "1",
        ],
    );
    assert_eq!(broken.code, 2, "{}", broken.stdout);
    assert!(
        broken.stderr.contains("the brute force") && broken.stderr.contains("is not accepted"),
        "{}",
        broken.stderr
    );
}

#[test]
fn stress_with_a_users_generator_shrinks_the_puzzles_it_printed() {
    if !have(&["g++", "python3"], "stress --gen") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let generator = format!(
        "python3 {}",
        manifest_dir()
            .join("tests/fixtures/programs/gen_relabelled.py")
            .display()
    );
    let run = judge_in(
        dir.path(),
        &[
            "stress",
            "--submission",
            &fixture("wa_stale_state.cpp"),
            "--gen",
            &generator,
            "--rounds",
            "2",
            "--seed",
            "7",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("gen_relabelled.py SEED` prints"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("3 puzzles with"), "{}", run.stdout);
    assert!(run.stdout.contains("-> 2 puzzles"), "{}", run.stdout);
    assert!(run.stdout.contains("--seed 7 --rounds 1"), "{}", run.stdout);
    // What it saved is what the generator printed, with givens added back:
    // every given of the example's layout is still given.
    let saved = puzzle_lines(&saved_input(&run.stdout, dir.path()));
    assert_eq!(saved.len(), 2);
    for puzzle in &saved {
        for (cell, given) in PUZZLE.chars().zip(puzzle.chars()) {
            assert!(cell == '.' || given != '.', "{puzzle}");
        }
    }
}

/// The VS Code task the documentation gives (`docs/practice.md`): the
/// `json` block that has a problem matcher.
fn readme_task() -> Value {
    let readme = std::fs::read_to_string(manifest_dir().join("docs/practice.md")).unwrap();
    let block = readme
        .split("```json\n")
        .skip(1)
        .filter_map(|rest| rest.split_once("```").map(|(block, _)| block))
        .find(|block| block.contains("problemMatcher"))
        .expect("docs/practice.md shows a VS Code task with a problem matcher");
    let tasks: Value = serde_json::from_str(block).expect("the task is valid JSON");
    tasks["tasks"][0].clone()
}

/// A problem: `(file, line, column, severity)` as VS Code reads them.
type Problem = (String, u32, Option<u32>, String);

/// The README task's problem matchers: each a list of patterns that match
/// one line after another (a single pattern is a list of one), with the
/// fields VS Code takes from each.
fn readme_matchers(task: &Value) -> Vec<Vec<(regex::Regex, Value)>> {
    let as_list = |v: &Value| match v {
        Value::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    as_list(&task["problemMatcher"])
        .iter()
        .map(|matcher| {
            as_list(&matcher["pattern"])
                .into_iter()
                .map(|pattern| {
                    let regexp = pattern["regexp"].as_str().expect("a pattern has a regexp");
                    (regex::Regex::new(regexp).unwrap(), pattern)
                })
                .collect()
        })
        .collect()
}

/// Every problem the matchers find in `output`, as VS Code would: a
/// matcher's patterns matched against consecutive lines, each giving the
/// fields it names.
fn problems(matchers: &[Vec<(regex::Regex, Value)>], output: &str) -> Vec<Problem> {
    let lines: Vec<&str> = output.lines().collect();
    let mut found = Vec::new();
    for patterns in matchers {
        for start in 0..lines.len() {
            let mut fields: std::collections::HashMap<&str, String> = Default::default();
            let matched = patterns.iter().enumerate().all(|(k, (regexp, pattern))| {
                let Some(captures) = lines.get(start + k).and_then(|l| regexp.captures(l)) else {
                    return false;
                };
                for key in ["file", "line", "column", "severity", "message"] {
                    if let Some(group) =
                        pattern[key].as_u64().and_then(|i| captures.get(i as usize))
                    {
                        fields.insert(key, group.as_str().to_string());
                    }
                }
                true
            });
            if matched {
                assert!(
                    fields.contains_key("message"),
                    "a problem needs a message: {patterns:?}"
                );
                found.push((
                    fields["file"].clone(),
                    fields["line"].parse().unwrap(),
                    fields.get("column").map(|c| c.parse().unwrap()),
                    fields.get("severity").cloned().unwrap_or_default(),
                ));
            }
        }
    }
    found
}

#[test]
fn the_readme_vs_code_task_reads_the_real_diagnostics() {
    let task = readme_task();
    let matchers = readme_matchers(&task);

    // A malformed case, once (not again in its failure block).
    let dir = suite(1);
    write(
        dir.path(),
        "cases/bad.in",
        &format!("{}x\nend\n", &PUZZLE[..80]),
    );
    let run = judge_in(dir.path(), &["test", "cases"]);
    assert_eq!(
        problems(&matchers, &run.stdout),
        vec![("cases/bad.in".to_string(), 1, Some(81), String::new())],
        "{}",
        run.stdout
    );
    // Nothing else the table prints is taken for a problem.
    let clean = judge_in(dir.path(), &["test", "cases/a.in"]);
    assert_eq!(
        problems(&matchers, &clean.stdout),
        vec![],
        "{}",
        clean.stdout
    );

    // A compile error, in the user's file.
    if have(&["g++"], "VS Code task on a compile error") {
        let run = judge_in(
            dir.path(),
            &[
                "test",
                "cases/a.in",
                "--submission",
                &fixture("ce_syntax.cpp"),
            ],
        );
        assert_eq!(
            problems(&matchers, &run.stdout),
            vec![(
                "ce_syntax.cpp".to_string(),
                6,
                Some(29),
                "error".to_string()
            )],
            "{}",
            run.stdout
        );
    }

    // The watch's runs begin and end where the task says, for every matcher.
    let as_list = |v: &Value| match v {
        Value::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    for matcher in as_list(&task["problemMatcher"]) {
        let background = &matcher["background"];
        let begins = regex::Regex::new(background["beginsPattern"].as_str().unwrap()).unwrap();
        let ends = regex::Regex::new(background["endsPattern"].as_str().unwrap()).unwrap();
        assert!(begins.is_match("watch: run 12, after a change to sol.py"));
        assert!(ends.is_match("watch: waiting for a change (Ctrl-C ends the watch)"));
    }
}

/// The README's problem matchers put every language's compile error in the
/// Problems panel: a broken file in each language installed here, judged
/// as the task judges it (the file by its name, from its directory), and
/// its error found at its line.
#[test]
fn the_readme_problem_matchers_find_every_languages_compile_errors() {
    let matchers = readme_matchers(&readme_task());
    let broken: &[(&str, &[&str], u32)] = &[
        ("ce_syntax.cpp", &["g++"], 6),
        ("ce_undeclared.c", &["gcc"], 4),
        ("ce_syntax.rs", &["rustc"], 6),
        ("ce_syntax.py", &["python3"], 7),
        ("ce_syntax.java", &["javac", "java"], 5),
        ("ce_undefined.go", &["go"], 4),
        ("ce_syntax.js", &["node"], 4),
        ("ce_type_error.ts", &["tsc", "node"], 4),
        ("ce_undeclared.cs", &["mcs", "mono"], 5),
        ("ce_unresolved.kt", &["kotlinc", "java"], 5),
        ("ce_not_found.scala", &["scalac", "java"], 5),
        ("ce_syntax.rb", &["ruby"], 5),
        ("ce_syntax.php", &["php"], 6),
        ("ce_unbound.rkt", &["racket"], 4),
    ];
    let dir = suite(1);
    for &(file, tools, line) in broken {
        if !have(tools, &format!("problem matcher on {file}")) {
            continue;
        }
        std::fs::copy(fixture(file), dir.path().join(file)).unwrap();
        let run = judge_in(dir.path(), &["test", "cases", "--submission", file]);
        assert_eq!(run.code, 1, "{file}: {}{}", run.stdout, run.stderr);
        let found = problems(&matchers, &run.stdout);
        assert!(
            found.iter().any(|(f, l, _, _)| f == file && *l == line),
            "{file}:{line} is not found by the README's matchers, which found {found:?} in:\n{}",
            run.stdout
        );
    }
}

/// The judge's stdout as it comes, read on a thread of its own.
fn collect(mut from: impl std::io::Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let into = Arc::clone(&text);
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            into.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    text
}

fn wait_for(text: &Mutex<String>, what: &str, patience: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < patience {
        if text.lock().unwrap().contains(what) {
            return true;
        }
        thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn watch_judges_again_when_the_submission_changes() {
    if !have(&["python3"], "watch") {
        return;
    }
    let dir = suite(2);
    let solution = dir.path().join("sol.py");
    std::fs::copy(fixture("ac_program.py"), &solution).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(["test", "cases", "--submission", "sol.py", "--watch"])
        .current_dir(dir.path())
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = collect(child.stdout.take().unwrap());
    let stderr = collect(child.stderr.take().unwrap());
    let patience = Duration::from_secs(60);
    let shown = || {
        format!(
            "stdout:\n{}\nstderr:\n{}",
            stdout.lock().unwrap(),
            stderr.lock().unwrap()
        )
    };
    let first = wait_for(&stdout, "watch: waiting for a change", patience);
    if !first {
        let _ = child.kill();
        panic!("the first run never ended: {}", shown());
    }
    assert!(
        stdout.lock().unwrap().contains("1 passed, 0 failed"),
        "{}",
        shown()
    );

    // Right to wrong: every answer all ones.
    std::fs::write(
        &solution,
        "import sys\nfor line in sys.stdin:\n    if line.strip() == 'end':\n        break\n    \
         print('1' * 81)\n",
    )
    .unwrap();
    let second = wait_for(&stdout, "AC → WA", patience);
    let after = wait_for(&stdout, "0 passed, 1 failed", patience);
    // The second run's end, as editors following the watch see it.
    let started = Instant::now();
    while started.elapsed() < patience
        && stdout
            .lock()
            .unwrap()
            .matches("watch: waiting for a change")
            .count()
            < 2
    {
        thread::sleep(Duration::from_millis(50));
    }
    // Stopped by its pid, as Ctrl-C would: it ends within a bounded time.
    // SAFETY: kill(2) on our own child, not yet waited for.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let stopping = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if stopping.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            break None;
        }
        thread::sleep(Duration::from_millis(50));
    };
    assert!(second && after, "no second report: {}", shown());
    assert!(
        stdout
            .lock()
            .unwrap()
            .contains("watch: run 2, after a change to sol.py"),
        "{}",
        shown()
    );
    let status = status.unwrap_or_else(|| panic!("Ctrl-C did not end the watch: {}", shown()));
    assert_eq!(status.code(), Some(130), "{}", shown());
}

/// A `test --watch` running in `dir`, its output collected as it comes.
struct Watching {
    child: std::process::Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Watching {
    fn start(dir: &Path, args: &[&str]) -> Watching {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args(args)
            .arg("--watch")
            .current_dir(dir)
            .env("SUDOKU_JUDGE_CACHE", build_cache())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = collect(child.stdout.take().unwrap());
        let stderr = collect(child.stderr.take().unwrap());
        Watching {
            child,
            stdout,
            stderr,
        }
    }

    fn shown(&self) -> String {
        format!(
            "stdout:\n{}\nstderr:\n{}",
            self.stdout.lock().unwrap(),
            self.stderr.lock().unwrap()
        )
    }

    /// Waits until the watch has ended `runs` runs; false if it did not
    /// within a minute.
    fn runs_ended(&self, runs: usize) -> bool {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(60) {
            let text = self.stdout.lock().unwrap();
            if text.matches("watch: waiting for a change").count() >= runs {
                return true;
            }
            drop(text);
            thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        // Stopped by its pid, as Ctrl-C would.
        // SAFETY: kill(2) on our own child, not yet waited for.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
        let stopping = Instant::now();
        while stopping.elapsed() < Duration::from_secs(20) {
            if self.child.try_wait().ok().flatten().is_some() {
                return;
            }
            thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Python program that prints 81 ones for every puzzle: a wrong answer.
const ALL_ONES_PY: &str =
    "import sys\nfor line in sys.stdin:\n    if line.strip() == 'end':\n        \
                           break\n    print('1' * 81, flush=True)\n";

#[test]
fn watch_with_cmd_judges_again_when_the_script_it_runs_changes() {
    if !have(&["python3"], "watch --cmd script") {
        return;
    }
    let dir = suite(1);
    std::fs::copy(fixture("ac_program.py"), dir.path().join("wprog.py")).unwrap();
    let watch = Watching::start(dir.path(), &["test", "cases", "--cmd", "python3 wprog.py"]);
    assert!(
        watch.runs_ended(1),
        "the first run never ended: {}",
        watch.shown()
    );
    assert!(
        watch.stdout.lock().unwrap().contains("1 passed, 0 failed"),
        "{}",
        watch.shown()
    );
    std::fs::write(dir.path().join("wprog.py"), ALL_ONES_PY).unwrap();
    assert!(watch.runs_ended(2), "no second run: {}", watch.shown());
    let text = watch.stdout.lock().unwrap().clone();
    assert!(
        text.contains("watch: run 2, after a change to wprog.py"),
        "{}",
        watch.shown()
    );
    assert!(text.contains("AC → WA"), "{}", watch.shown());
}

#[test]
fn watch_with_cmd_judges_again_when_the_program_is_rebuilt() {
    if !have(&["python3"], "watch --cmd rebuilt program") {
        return;
    }
    let dir = suite(1);
    let program = dir.path().join("a.out");
    let install = |source: &str, with: &str| {
        // As a compiler does: a new file, then renamed over the old one
        // (a new inode: a watch on the old file would never see it).
        let fresh = dir.path().join(format!(".{source}.tmp"));
        std::fs::write(&fresh, with).unwrap();
        std::fs::set_permissions(&fresh, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        std::fs::rename(&fresh, &program).unwrap();
    };
    let right = format!(
        "#!/usr/bin/env python3\n{}",
        std::fs::read_to_string(fixture("ac_program.py")).unwrap()
    );
    install("right", &right);
    let watch = Watching::start(dir.path(), &["test", "cases", "--cmd", "./a.out"]);
    assert!(
        watch.runs_ended(1),
        "the first run never ended: {}",
        watch.shown()
    );
    assert!(
        watch.stdout.lock().unwrap().contains("1 passed, 0 failed"),
        "{}",
        watch.shown()
    );
    install("wrong", &format!("#!/usr/bin/env python3\n{ALL_ONES_PY}"));
    assert!(watch.runs_ended(2), "no second run: {}", watch.shown());
    let text = watch.stdout.lock().unwrap().clone();
    assert!(
        text.contains("watch: run 2, after a change to a.out"),
        "{}",
        watch.shown()
    );
    assert!(text.contains("AC → WA"), "{}", watch.shown());
}

#[test]
fn watch_ends_each_run_with_the_compile_error_on_screen() {
    if !have(&["g++"], "watch on a compile error") {
        return;
    }
    let dir = suite(1);
    std::fs::copy(fixture("ce_syntax.cpp"), dir.path().join("sol.cpp")).unwrap();
    let watch = Watching::start(dir.path(), &["test", "cases", "--submission", "sol.cpp"]);
    assert!(
        watch.runs_ended(1),
        "the first run never ended: {}",
        watch.shown()
    );
    let text = watch.stdout.lock().unwrap().clone();
    let (run, _) = text
        .split_once("watch: waiting for a change")
        .expect("a run ended");
    let last = run.trim_end().rsplit_once("\n\n").map_or(run, |(_, b)| b);
    assert!(
        last.starts_with("sol.cpp did not compile:") && last.contains("sol.cpp:6:29: error"),
        "the compiler's message is the last block of the run:\n{}",
        watch.shown()
    );
}

#[test]
fn show_output_shows_what_an_accepted_leetcode_file_printed_under_its_row() {
    if !have(&["python3"], "--show-output") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let example = manifest_dir().join("cases/leetcode37/example1");
    let example = example.to_str().unwrap();
    let html = dir.path().join("report.html");
    let shown = judge_in(
        dir.path(),
        &[
            "test",
            example,
            "--submission",
            &fixture("ac_leetcode.py"),
            "--show-output",
            "--html",
            html.to_str().unwrap(),
        ],
    );
    assert_eq!(shown.code, 0, "{}{}", shown.stdout, shown.stderr);
    assert!(
        shown.stdout.contains(
            "  example1  1 puzzle; printed 1 line of its own\n      its own stdout (not part of \
             the answers):\n          solving, blanks: 51\n\n"
        ),
        "{}",
        shown.stdout
    );
    // The HTML report shows it too, under the accepted case's name.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains(
            "<h2>What accepted cases printed</h2>\n<div class=\"output\" data-case=\"example1\">\n\
             <h3>example1</h3>\n<p class=\"legend\">its own stdout (not part of the answers):</p>\
             <pre>solving, blanks: 51\n</pre>"
        ),
        "{page}"
    );
    // Without it, the row says how much was printed, and nothing more.
    let plain = judge_in(
        dir.path(),
        &["test", example, "--submission", &fixture("ac_leetcode.py")],
    );
    assert_eq!(plain.code, 0, "{}{}", plain.stdout, plain.stderr);
    assert!(plain.stdout.contains("printed 1 line of its own\n"));
    assert!(
        !plain.stdout.contains("solving, blanks"),
        "{}",
        plain.stdout
    );

    // A flood is cut as a failure's output is: its first lines, how many
    // are left out, and its last line.
    let flood = write(
        dir.path(),
        "flood.py",
        &std::fs::read_to_string(fixture("ac_leetcode.py"))
            .unwrap()
            .replace(
                "print(\"solving, blanks:\", len(empty))",
                "print(\"\\n\".join(f\"line {i} {'x' * 20}\" for i in range(5000)))",
            ),
    );
    let cut = judge_in(
        dir.path(),
        &[
            "test",
            example,
            "--submission",
            flood.to_str().unwrap(),
            "--show-output",
        ],
    );
    assert_eq!(cut.code, 0, "{}{}", cut.stdout, cut.stderr);
    for line in [
        "printed 5000 lines of its own\n",
        "\n          line 0 xxxxxxxxxxxxxxxxxxxx\n",
        "\n          line 18 xxxxxxxxxxxxxxxxxxxx\n          ... 4980 more lines (the judge \
         keeps the first 64 KB of the output, and its last line)\n          line 4999 \
         xxxxxxxxxxxxxxxxxxxx\n",
    ] {
        assert!(cut.stdout.contains(line), "{line:?} in\n{}", cut.stdout);
    }

    // --quiet shows no accepted rows: the two do not go together.
    let both = judge_in(
        dir.path(),
        &[
            "test",
            example,
            "--submission",
            &fixture("ac_leetcode.py"),
            "--show-output",
            "--quiet",
        ],
    );
    assert_eq!(both.code, 2);
    assert!(
        both.stderr.contains("cannot be used with"),
        "{}",
        both.stderr
    );
}

/// The ids a JSON report judged, in order.
fn ids(run: &Run) -> Vec<String> {
    cases_of(&run.json())
        .iter()
        .map(|case| case["id"].as_str().unwrap().to_string())
        .collect()
}

/// A suite of `names`, each the LeetCode example as an AcWing case with
/// its answer, under `dir`.
fn pack(dir: &Path, names: &[&str]) {
    for name in names {
        write(dir, &format!("{name}.in"), &format!("{PUZZLE}\nend\n"));
        write(dir, &format!("{name}.out"), &format!("{ANSWER}\n"));
    }
}

#[test]
fn failed_reruns_the_last_failures_where_they_were_judged() {
    if !have(&["python3"], "--failed with a submission") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("pack/cases");
    pack(&suite, &["a", "b"]);
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    // Judged from a directory with no cases/ of its own: both fail.
    let first = judge_in(
        &work,
        &[
            "test",
            suite.to_str().unwrap(),
            "--solver",
            "faulty-leaves-blank",
        ],
    );
    assert_eq!(first.code, 1, "{}{}", first.stdout, first.stderr);
    // Rerun with the fixed submission and no path: the record says where
    // the failures were.
    let rerun = judge_in(
        &work,
        &[
            "test",
            "--failed",
            "--submission",
            &fixture("ac_program.py"),
            "--format",
            "json",
        ],
    );
    assert_eq!(rerun.code, 0, "{}{}", rerun.stdout, rerun.stderr);
    assert_eq!(ids(&rerun), ["a", "b"]);
    // A path given still picks where to look.
    let named = judge_in(
        &work,
        &[
            "test",
            suite.to_str().unwrap(),
            "--failed",
            "--solver",
            "faulty-leaves-blank",
            "--format",
            "json",
        ],
    );
    assert_eq!(named.code, 0, "nothing failed last time: {}", named.stdout);
    assert!(
        named.stdout.contains("nothing to rerun"),
        "{}",
        named.stdout
    );
    // A suite that is gone is named, with what to do.
    let again = judge_in(
        &work,
        &[
            "test",
            suite.to_str().unwrap(),
            "--solver",
            "faulty-leaves-blank",
        ],
    );
    assert_eq!(again.code, 1);
    std::fs::rename(tmp.path().join("pack"), tmp.path().join("moved")).unwrap();
    let gone = judge_in(&work, &["test", "--failed"]);
    assert_eq!(gone.code, 2, "{}{}", gone.stdout, gone.stderr);
    assert!(
        gone.stderr
            .contains("pack/cases, which is gone; name the cases"),
        "{}",
        gone.stderr
    );
}

#[test]
fn the_judges_records_are_data_never_written_through_a_planted_link() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path();
    // A case named to break a line of the record and run a command, and a
    // record that is a link to a file of the user's, as a pack would ship
    // them.
    let odd = "x\n$(touch PWN)";
    pack(&work.join("cases"), &[odd, "plain"]);
    let victim = work.join("victim.txt");
    write(work, "victim.txt", "mine\n");
    std::fs::create_dir(work.join(".sudoku-judge")).unwrap();
    for record in ["failed", "last.json"] {
        std::os::unix::fs::symlink(&victim, work.join(".sudoku-judge").join(record)).unwrap();
    }
    let first = judge_in(work, &["test", "--solver", "faulty-leaves-blank"]);
    assert_eq!(first.code, 1, "{}{}", first.stdout, first.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
    // The links were replaced by records of the judge's: one JSON document
    // a line, the odd name inside one of them.
    let record_path = work.join(".sudoku-judge/failed");
    assert!(!record_path.symlink_metadata().unwrap().is_symlink());
    let record = std::fs::read_to_string(&record_path).unwrap();
    let lines: Vec<Value> = record
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    assert_eq!(lines.len(), 3, "a header and two cases: {record}");
    let odd_input = work.join(format!("cases/{odd}.in"));
    assert!(
        lines[1..]
            .iter()
            .any(|line| line["input"].as_str() == odd_input.to_str()),
        "{record}"
    );
    assert!(!work.join("PWN").exists());
    // Read back by the judge, it reruns exactly those cases.
    let rerun = judge_in(work, &["test", "--failed", "--format", "json"]);
    assert_eq!(rerun.code, 0, "{}{}", rerun.stdout, rerun.stderr);
    // (A report names a case on one line: its newline is shown `\x0a`.)
    assert_eq!(ids(&rerun), ["plain", &odd.replace('\n', "\\x0a")]);

    // A record that is a link is refused when read, naming it.
    std::fs::remove_file(&record_path).unwrap();
    std::os::unix::fs::symlink(&victim, &record_path).unwrap();
    let refused = judge_in(work, &["test", "--failed"]);
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains(".sudoku-judge/failed is a symbolic link, not a record of the judge's"),
        "{}",
        refused.stderr
    );

    // The judge's directory as a link: nothing is written through it, and
    // the run says what it could not record and what to do.
    let elsewhere = work.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::remove_dir_all(work.join(".sudoku-judge")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, work.join(".sudoku-judge")).unwrap();
    let linked = judge_in(work, &["test", "--solver", "faulty-leaves-blank"]);
    assert_eq!(linked.code, 1, "{}{}", linked.stdout, linked.stderr);
    assert!(
        linked.stderr.contains(
            "warning: .sudoku-judge is a symbolic link, and the judge writes only into \
             directories it reaches without a link"
        ),
        "{}",
        linked.stderr
    );
    assert!(
        linked.stderr.contains("--failed will not know this run"),
        "{}",
        linked.stderr
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);

    // One that every user may write is refused too.
    std::fs::remove_file(work.join(".sudoku-judge")).unwrap();
    std::fs::create_dir(work.join(".sudoku-judge")).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(
        work.join(".sudoku-judge"),
        std::fs::Permissions::from_mode(0o777),
    )
    .unwrap();
    let open = judge_in(work, &["test", "--solver", "faulty-leaves-blank"]);
    assert!(
        open.stderr
            .contains(".sudoku-judge is writable by every user, so anyone could plant records in it; make it yours alone (`chmod o-w .sudoku-judge`)"),
        "{}",
        open.stderr
    );
    assert_eq!(
        std::fs::read_dir(work.join(".sudoku-judge"))
            .unwrap()
            .count(),
        0
    );
}
