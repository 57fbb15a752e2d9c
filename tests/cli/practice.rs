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
        let source = dir.path().join("debug").join(if file.ends_with(".cpp") {
            "main.cpp"
        } else {
            file
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

/// `(file, line, column, severity)` of every line `pattern` matches.
fn problems(pattern: &regex::Regex, output: &str) -> Vec<(String, u32, u32, String)> {
    output
        .lines()
        .filter_map(|line| pattern.captures(line))
        .map(|c| {
            (
                c[1].to_string(),
                c[2].parse().unwrap(),
                c[3].parse().unwrap(),
                c.get(4).map_or("", |m| m.as_str()).to_string(),
            )
        })
        .collect()
}

#[test]
fn the_readme_vs_code_task_reads_the_real_diagnostics() {
    let task = readme_task();
    let matcher = &task["problemMatcher"];
    let pattern = regex::Regex::new(matcher["pattern"]["regexp"].as_str().unwrap()).unwrap();
    assert_eq!(matcher["pattern"]["file"], 1);
    assert_eq!(matcher["pattern"]["severity"], 4);

    // A malformed case, once (not again in its failure block).
    let dir = suite(1);
    write(
        dir.path(),
        "cases/bad.in",
        &format!("{}x\nend\n", &PUZZLE[..80]),
    );
    let run = judge_in(dir.path(), &["test", "cases"]);
    assert_eq!(
        problems(&pattern, &run.stdout),
        vec![("cases/bad.in".to_string(), 1, 81, String::new())],
        "{}",
        run.stdout
    );
    // Nothing else the table prints is taken for a problem.
    let clean = judge_in(dir.path(), &["test", "cases/a.in"]);
    assert_eq!(
        problems(&pattern, &clean.stdout),
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
            problems(&pattern, &run.stdout),
            vec![("ce_syntax.cpp".to_string(), 6, 29, "error".to_string())],
            "{}",
            run.stdout
        );
    }

    // The watch's runs begin and end where the task says.
    let background = &matcher["background"];
    let begins = regex::Regex::new(background["beginsPattern"].as_str().unwrap()).unwrap();
    let ends = regex::Regex::new(background["endsPattern"].as_str().unwrap()).unwrap();
    assert!(begins.is_match("watch: run 12, after a change to sol.py"));
    assert!(ends.is_match("watch: waiting for a change (Ctrl-C ends the watch)"));
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
