//! `test --submission`: programs and LeetCode-style files in C++, Rust,
//! Python and Java, their verdicts, builds and what is left running.

use std::fs;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::{
    build_cache, cases_of, eventually, have, interrupted_run, judge_fixture, judge_fixture_path,
    judge_with, manifest_dir, only_verdict, processes_running, run, run_in, shipped, write, ANSWER,
};

#[test]
fn answers_past_the_last_puzzle_are_never_counted_as_more_puzzles_than_there_are() {
    // Three answers for the two puzzles, then a crash: what was printed is
    // said as it is, never "3 of 2 puzzles answered".
    let command = format!("sh -c 'echo {ANSWER}; echo {ANSWER}; echo {ANSWER}; exit 3'");
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--cmd",
        &command,
        "--format",
        "json",
    ]);
    let (verdict, message) = only_verdict(&run.json());
    assert_eq!(verdict, "RE");
    assert_eq!(
        message,
        "exited with code 3; printed 3 answer lines for 2 puzzles, so it went on past the last one"
    );
}

#[test]
fn leetcode_style_files_are_accepted_in_every_language() {
    for (file, tools) in [
        ("ac_leetcode.cpp", &["g++"][..]),
        ("ac_leetcode.rs", &["rustc"][..]),
        ("ac_leetcode.py", &["python3"][..]),
        ("ac_leetcode.java", &["javac", "java"][..]),
    ] {
        if !have(tools, file) {
            continue;
        }
        // Every shipped format reaches the function as a board.
        for cases in ["cases/leetcode37", "cases/acwing166/hard.in"] {
            let (run, report) = judge_fixture(file, cases, &["--time-limit", "5s"]);
            assert_eq!(
                only_verdict(&report).0,
                "AC",
                "{file} on {cases}: {}",
                run.stdout
            );
            assert_eq!(run.code, 0, "{file}");
            assert_eq!(report["build"]["interface"], "leetcode", "{file}");
            for case in cases_of(&report) {
                assert!(case["memory_kb"].as_u64().unwrap() > 0, "{file}");
                assert!(case["cpu_ms"].as_f64().unwrap() > 0.0, "{file}");
            }
        }
    }
}

/// A LeetCode file as kept locally, with a harness that solves and prints
/// LeetCode's example: on LeetCode's problem the class is judged through
/// the driver, the harness left out; elsewhere the file is a program.
#[test]
fn a_leetcode_file_with_a_local_harness_is_judged_as_leetcode_reads_it() {
    for (file, tools, note) in [
        (
            "ac_leetcode_with_main.py",
            &["python3"][..],
            "block, a local test harness, is not run",
        ),
        (
            "ac_leetcode_marked.py",
            &["python3"][..],
            "between `@lc code=start` and `@lc code=end`",
        ),
        (
            "ac_leetcode_with_main.cpp",
            &["g++"][..],
            "its own main (lines 49–60), a local test harness, is left out",
        ),
        (
            "ac_leetcode_marked.cpp",
            &["g++"][..],
            "between `@lc code=start` and `@lc code=end`",
        ),
    ] {
        if !have(tools, file) {
            continue;
        }
        let path = format!("tests/fixtures/submissions/{file}");
        let run = judge_with(&["test", "cases/leetcode37", "--submission", &path]);
        assert_eq!(run.code, 0, "{file}:\n{}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("LeetCode-style"),
            "{file}:\n{}",
            run.stdout
        );
        assert!(run.stdout.contains(note), "{file}:\n{}", run.stdout);
        if file.ends_with("with_main.cpp") {
            assert!(
                run.stdout
                    .contains("pasted whole, LeetCode would say Compile Error"),
                "{file}:\n{}",
                run.stdout
            );
        }
        // On AcWing's problem it is a program, which prints LeetCode's
        // example whatever it is given, and the note says how else to read it.
        let run = judge_with(&["test", "cases/acwing166/sample.in", "--submission", &path]);
        assert_eq!(run.code, 1, "{file}:\n{}{}", run.stdout, run.stderr);
        if file.contains("with_main") {
            assert!(
                run.stdout.contains("--interface leetcode"),
                "{file}:\n{}",
                run.stdout
            );
        }
        // --interface chooses either reading, whatever the problem.
        let (_, report) = judge_fixture(
            file,
            "cases/leetcode37/example1",
            &["--problem", "acwing166", "--interface", "leetcode"],
        );
        assert_eq!(only_verdict(&report).0, "AC", "{file}: {report}");
        let (_, report) = judge_fixture(
            file,
            "cases/leetcode37/one-blank",
            &["--interface", "program"],
        );
        assert_eq!(only_verdict(&report).0, "WA", "{file}: {report}");
    }
}

/// The local harness of a script, in each language's form of "run this
/// when executed directly" (`require.main === module`, `if __FILE__ ==
/// $0`, Racket's `module+ main`, PHP's code after the class): on LeetCode's
/// problem the file is judged through the driver, AC, and the harness,
/// which would print the solved example, is not run.
#[test]
fn a_scripts_local_harness_is_not_run_through_the_driver() {
    for (file, tools) in [
        ("ac_leetcode_with_main.js", &["node"][..]),
        ("ac_leetcode_with_main.ts", &["tsc", "node"][..]),
        ("ac_leetcode_with_main.rb", &["ruby"][..]),
        ("ac_leetcode_with_main.php", &["php"][..]),
        ("ac_leetcode_with_main.rkt", &["racket"][..]),
    ] {
        if !have(tools, file) {
            continue;
        }
        let (run, report) = judge_fixture(file, "cases/leetcode37", &[]);
        assert_eq!(run.code, 0, "{file}:\n{}{}", run.stdout, run.stderr);
        assert_eq!(report["build"]["interface"], "leetcode", "{file}");
        let cases = cases_of(&report);
        assert!(cases.len() >= 10, "{file}");
        for case in cases {
            assert_eq!(case["verdict"], "AC", "{file}: {case}");
            // The harness prints the example's first row, solved.
            let printed = case["stdout"].as_str().unwrap_or_default();
            assert!(!printed.contains("534678912"), "{file}: {printed}");
        }
    }
}

/// POJ builds C++ with an old G++: a program of that era, with `gets` and
/// a global named `size`, is accepted there and a compile error in C++17.
#[test]
fn a_poj_era_program_is_built_as_poj_builds_it_under_poj3074() {
    if !have(&["g++"], "POJ's compiler profile") {
        return;
    }
    let path = "tests/fixtures/submissions/ac_poj_gets.cpp";
    let run = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--submission",
        path,
        "--problem",
        "poj3074",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let build = run
        .stdout
        .lines()
        .find(|l| l.contains("g++ "))
        .unwrap_or_else(|| panic!("no build line:\n{}", run.stdout));
    assert!(
        build.contains("g++ -O2 -std=gnu++98 -DONLINE_JUDGE"),
        "{build}"
    );
    assert!(
        run.stdout
            .contains("built for poj3074 with -O2 -std=gnu++98 -DONLINE_JUDGE"),
        "{}",
        run.stdout
    );
    let (_, report) = judge_fixture(
        "ac_poj_gets.cpp",
        "cases/acwing166/sample.in",
        &["--problem", "acwing166"],
    );
    assert_eq!(only_verdict(&report).0, "CE", "{report}");
    // Built as AcWing builds, it is told what shows it is POJ's.
    let run = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--submission",
        path,
        "--problem",
        "acwing166",
    ]);
    assert!(
        run.stdout.contains(
            "note: `gets` is gone from C++14 on; POJ's G++ (C++98) has it; if this program is \
             written for POJ, judge it with --problem poj3074"
        ),
        "{}",
        run.stdout
    );
}

/// POJ's G++ gave `<cstring>` and `<cstdio>` with `<iostream>`, read a
/// whole line into a `char s[81]` and never took `strlen` of it to be
/// under 81: a program of POJ's that relies on all of it is accepted under
/// poj3074, and under AcWing's strict C++17 it is CE, with a note saying
/// what POJ gave.
#[test]
fn a_poj_program_with_iostream_alone_is_accepted_as_poj_accepts_it() {
    if !have(&["g++"], "POJ's headers and reads") {
        return;
    }
    let file = "ac_poj_iostream_only.cpp";
    for cases in ["cases/acwing166/sample.in", "cases/acwing166/medium.in"] {
        let (run, report) = judge_fixture(file, cases, &["--problem", "poj3074"]);
        assert_eq!(
            only_verdict(&report).0,
            "AC",
            "{cases}: {}{}",
            run.stdout,
            run.stderr
        );
    }
    let path = format!("tests/fixtures/submissions/{file}");
    let run = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--submission",
        &path,
        "--problem",
        "acwing166",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("\nCE "), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "which POJ's G++ included with `<iostream>` and AcWing's does not: include it for \
             AcWing; if this program is written for POJ, judge it with --problem poj3074"
        ),
        "{}",
        run.stdout
    );
}

/// A NUL byte where a cell should be is said in words, with what prints
/// one: a C string's terminator.
#[test]
fn a_nul_in_an_answer_is_explained() {
    if !have(&["python3"], "a NUL in an answer") {
        return;
    }
    let command = shell_words::join([
        "python3",
        "-c",
        "import sys; sys.stdin.read(); sys.stdout.write('1' * 80 + chr(0) + '\\n')",
    ]);
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--cmd",
        &command,
        "--format",
        "json",
    ]);
    let report = run.json();
    let (verdict, message) = only_verdict(&report);
    assert_eq!(verdict, "WA", "{message}");
    assert!(
        message.contains(
            "line 1, column 81: a NUL byte ('\\0') where a cell should be: the program printed a \
             C string's terminator"
        ),
        "{message}"
    );
}

/// A LeetCode-style file that writes "0" into a blank: judged as the blank
/// it reads as (the verdict and reason are as for a "."), and shown as the
/// "0" it wrote, the same in the table's grids, the JSON report's, the
/// HTML page's and the output `--keep` keeps.
#[test]
fn a_0_a_leetcode_file_writes_is_judged_as_a_blank_and_shown_as_written() {
    if !have(&["python3"], "a 0 written in a LeetCode board") {
        return;
    }
    let file = "tests/fixtures/submissions/wa_leaves_zero.py";
    let row = "|*5 *3  4 | 6 *7  8 | 9  1  2 |   |*5 *3 [0]| 6 *7  8 | 9  1  2 |";
    let note = "[0]: a 0 was printed there, which is no digit: it reads as a blank";
    let table = judge_with(&["test", "cases/leetcode37/example1", "--submission", file]);
    assert_eq!(table.code, 1, "{}{}", table.stdout, table.stderr);
    let line = |text: &str, start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?}:\n{text}"))
            .trim_end()
            .to_string()
    };
    assert!(
        line(&table.stdout, "WA ").ends_with("example1  1 cell left empty"),
        "{}",
        table.stdout
    );
    assert_eq!(
        line(&table.stdout, "  why:"),
        "  why:      the answer: r1c3 is empty"
    );
    assert!(table.stdout.contains(row), "{}", table.stdout);
    assert!(table.stdout.contains(note), "{}", table.stdout);
    assert!(!table.stdout.contains("[.]"), "{}", table.stdout);

    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let kept = dir.path().join("kept");
    let (run, report) = judge_fixture(
        "wa_leaves_zero.py",
        "cases/leetcode37/example1",
        &[
            "--html",
            html.to_str().unwrap(),
            "--keep",
            kept.to_str().unwrap(),
        ],
    );
    assert_eq!(
        only_verdict(&report),
        ("WA".to_string(), "the answer: r1c3 is empty".to_string()),
        "{}",
        run.stderr
    );
    let details = cases_of(&report)[0]["details"].as_str().unwrap();
    assert!(details.contains(row), "{details}");
    assert!(details.contains(note), "{details}");
    // The page draws the cell marked wrong, holding the 0.
    let page = fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<td class=\"wrong\">0</td>"),
        "{}",
        &page[page.find("<table class=\"grid\">").unwrap_or(0)..]
    );
    assert!(page.contains(note), "the note is on the page too");
    // What the file left, as the judge read it.
    let output = fs::read_to_string(kept.join("example1/output.txt")).unwrap();
    assert!(
        output.starts_with(r#"[["5","3","0","6","7","8","9","1","2"],"#),
        "{output}"
    );
}

#[test]
fn debug_output_of_a_leetcode_file_is_kept_apart_from_its_answers() {
    if !have(&["python3"], "debug output") {
        return;
    }
    let (run, report) = judge_fixture("ac_leetcode.py", "cases/acwing166/sample.in", &[]);
    assert_eq!(only_verdict(&report).0, "AC", "{}", run.stdout);
    let stdout = cases_of(&report)[0]["stdout"].as_str().unwrap();
    assert_eq!(
        stdout.lines().count(),
        2,
        "one debug line per board: {stdout:?}"
    );
    assert!(stdout.starts_with("solving, blanks:"), "{stdout:?}");
    let table = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--submission",
        "tests/fixtures/submissions/ac_leetcode.py",
    ]);
    assert!(
        table.stdout.contains("printed 2 lines of its own"),
        "{}",
        table.stdout
    );
}

#[test]
fn programs_are_accepted_in_every_language_and_any_case_format() {
    for (file, tools) in [
        ("ac_program.cpp", &["g++"][..]),
        ("ac_program.rs", &["rustc"][..]),
        ("ac_program.py", &["python3"][..]),
        ("ac_program.java", &["javac", "java"][..]),
    ] {
        if !have(tools, file) {
            continue;
        }
        for cases in ["cases/acwing166/sample.in", "cases/leetcode37"] {
            let (run, report) = judge_fixture(file, cases, &["--time-limit", "5s"]);
            assert_eq!(
                only_verdict(&report).0,
                "AC",
                "{file} on {cases}: {}",
                run.stdout
            );
            assert_eq!(report["build"]["interface"], "program", "{file}");
        }
    }
}

#[test]
fn failing_programs_get_their_verdicts() {
    if !have(&["g++"], "failing C++ programs") {
        return;
    }
    let sample = "cases/acwing166/sample.in";
    for (file, verdict, words) in [
        (
            "wa_wrong_digit.cpp",
            "WA",
            "row 9 has two 4s (r9c3 and r9c9)",
        ),
        (
            "pe_grid.cpp",
            "PE",
            "the answers are right but printed in grid format; they should be in acwing format",
        ),
        ("tle_endless_loop.cpp", "TLE", "the 1000 ms limit"),
        (
            "re_segfault.cpp",
            "RE",
            "killed by SIGSEGV (segmentation fault",
        ),
        ("re_stack_overflow.cpp", "RE", "killed by SIGSEGV"),
        ("mle_allocate.cpp", "MLE", "over the 64.0 MB limit"),
        ("ole_flood.cpp", "OLE", "the output limit"),
        ("ac_never_reads_floods_stderr.cpp", "AC", ""),
    ] {
        let (run, report) = judge_fixture(file, sample, &["--problem", "acwing166"]);
        let (got, message) = only_verdict(&report);
        assert_eq!(got, verdict, "{file}: {message}\n{}", run.stdout);
        assert!(message.contains(words), "{file}: {message}");
        let case = &cases_of(&report)[0];
        assert_eq!(case["memory_limit_kb"], 65536, "{file}");
        if verdict == "MLE" {
            // Stopped near the limit, not left to eat the machine.
            assert!(case["memory_kb"].as_u64().unwrap() < 1024 * 1024, "{case}");
        }
    }
}

#[test]
fn python_programs_that_sleep_or_fail_get_their_verdicts() {
    if !have(&["python3"], "failing Python programs") {
        return;
    }
    let (_, report) = judge_fixture("tle_sleeps.py", "cases/acwing166/sample.in", &[]);
    let (verdict, message) = only_verdict(&report);
    assert_eq!(verdict, "TLE");
    assert!(message.contains("of wall time"), "{message}");

    let (_, report) = judge_fixture("re_exit_code.py", "cases/acwing166/sample.in", &[]);
    let (verdict, message) = only_verdict(&report);
    assert_eq!(verdict, "RE");
    assert!(message.starts_with("exited with code 3"), "{message}");
    let details = cases_of(&report)[0]["details"].as_str().unwrap();
    assert!(details.contains("something went wrong"), "{details}");
}

#[test]
fn a_crashing_leetcode_file_is_re_with_the_cause() {
    for (file, tools, words) in [
        (
            "re_panic.rs",
            &["rustc"][..],
            "panicked at re_panic.rs:6:14: index out of bounds",
        ),
        (
            "re_exception.java",
            &["javac", "java"][..],
            "threw java.lang.IllegalStateException: board is unsolvable?",
        ),
    ] {
        if !have(tools, file) {
            continue;
        }
        let (_, report) = judge_fixture(file, "cases/leetcode37/example1", &[]);
        let (verdict, message) = only_verdict(&report);
        assert_eq!(verdict, "RE", "{file}");
        assert!(message.contains(words), "{file}: {message}");
    }
}

#[test]
fn a_leetcode_board_stopped_part_way_is_charged_the_cpu_it_used() {
    if !have(&["python3"], "charging a board stopped part way") {
        return;
    }
    for (file, verdict, extra) in [
        // It never ends: TLE at any limit. Under 1 s it sleeps 1.5 s, then
        // spins until the wall-clock cap (2 s) stops it, with CPU spent.
        (
            "tle_sleeps_then_spins.py",
            "TLE",
            &["--time-limit", "1s"][..],
        ),
        (
            "mle_spins_then_allocates.py",
            "MLE",
            &["--memory-limit", "64M"][..],
        ),
        ("re_spins_then_raises.py", "RE", &[][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("report.json");
        let fixture = format!("tests/fixtures/submissions/{file}");
        let mut args = vec![
            "test",
            "cases/leetcode37/example1",
            "--submission",
            &fixture,
            "--json",
            json.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = judge_with(&args);
        let report: Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
        let case = &cases_of(&report)[0];
        assert_eq!(case["verdict"], verdict, "{file}: {case}");
        let time_ms = case["time_ms"].as_f64().unwrap();
        let cpu_ms = case["cpu_ms"].as_f64().unwrap();
        assert!(time_ms > 0.0, "{file} was charged nothing: {case}");
        assert!(time_ms <= cpu_ms + 1.0, "{file}: {case}");
        // The table charges what the JSON does.
        let charged = Duration::from_secs_f64(time_ms / 1000.0);
        let row = run
            .stdout
            .lines()
            .find(|l| l.starts_with(verdict))
            .unwrap_or_else(|| panic!("{file}: no {verdict} row in\n{}", run.stdout));
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            format!("{} {}", words[1], words[2]),
            sudoku_judge::words::format_ms(charged),
            "{file}: {row}"
        );
        // And so does the reason, where it names the time.
        let message = case["message"].as_str().unwrap();
        // On a quiet machine the wall-clock cap stops it, asleep most of
        // the time, and the reason names the CPU time of the cpu column; on
        // a busy one the judge, seeing it starved, gives it more wall time
        // and the CPU limit stops it, and the reason names the time charged.
        if verdict == "TLE" {
            let cpu = sudoku_judge::words::whole_ms(Duration::from_secs_f64(cpu_ms / 1000.0));
            let charged = sudoku_judge::words::whole_ms(charged);
            assert!(
                (message.contains("of wall time") && message.contains(&format!("(CPU {cpu})")))
                    || message.contains(&format!("with {charged} of CPU time charged")),
                "{file}: {message} / {case}"
            );
        }
    }
}

#[test]
fn a_compile_error_is_ce_on_every_case_with_the_message_once() {
    for (file, tools, place) in [
        ("ce_syntax.cpp", &["g++"][..], "ce_syntax.cpp:6:29: error"),
        ("ce_syntax.rs", &["rustc"][..], "ce_syntax.rs:6:21"),
        ("ce_syntax.java", &["javac"][..], "ce_syntax.java:5: error"),
    ] {
        if !have(tools, file) {
            continue;
        }
        let path = format!("tests/fixtures/submissions/{file}");
        let run = judge_with(&["test", "cases/leetcode37", "--submission", &path]);
        assert_eq!(run.code, 1, "{file}");
        assert!(
            run.stdout
                .trim_end()
                .rsplit_once("\n\n")
                .is_some_and(|(_, last)| last.starts_with(&format!("{path} did not compile:\n"))),
            "{}",
            run.stdout
        );
        assert_eq!(
            run.stdout.matches(place).count(),
            1,
            "{file}:\n{}",
            run.stdout
        );
        // One row says it for every case: a compile error is the
        // submission's, the same for each.
        let rows = run.stdout.lines().filter(|l| l.starts_with("CE ")).count();
        let cases = shipped("leetcode37");
        assert_eq!(rows, 1, "{file}:\n{}", run.stdout);
        assert!(
            run.stdout.contains(&format!(": {cases} CE")),
            "{file}:\n{}",
            run.stdout
        );
        assert!(
            run.stdout.contains(&format!("{cases} cases in")),
            "{}",
            run.stdout
        );
        assert!(
            !run.stdout.contains("failures:"),
            "no block repeats it:\n{}",
            run.stdout
        );
    }
}

#[test]
fn a_second_run_uses_the_cached_build() {
    if !have(&["g++"], "build cache") {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let judge = || {
        let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args([
                "test",
                "cases/acwing166/sample.in",
                "--submission",
                "tests/fixtures/submissions/ac_program.cpp",
            ])
            .current_dir(manifest_dir())
            .env("SUDOKU_JUDGE_CACHE", cache.path())
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let first = judge();
    assert!(
        first.starts_with("compiled tests/fixtures/submissions/ac_program.cpp in "),
        "{first}"
    );
    assert!(
        first.contains("g++ -O2 -std=c++17 -DONLINE_JUDGE"),
        "{first}"
    );
    let second = judge();
    assert!(
        second.starts_with("using the cached build of tests/fixtures/submissions/ac_program.cpp"),
        "{second}"
    );
    let builds = fs::read_dir(cache.path())
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count();
    assert_eq!(builds, 1);
}

#[test]
fn a_build_that_fails_leaves_nothing_in_the_cache() {
    if !have(&["g++"], "a failed build's leftovers") {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args([
            "test",
            "cases/acwing166/sample.in",
            "--submission",
            "tests/fixtures/submissions/ce_syntax.cpp",
        ])
        .current_dir(manifest_dir())
        .env("SUDOKU_JUDGE_CACHE", cache.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("CE "));
    // The compilers' versions are kept; nothing of the build is.
    let left: Vec<String> = fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, [".versions"]);
}

#[test]
fn the_build_cache_keeps_to_its_cap_and_shows_and_clears_itself() {
    if !have(&["g++"], "the build cache's cap") {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let sudoku_judge = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args(args)
            .current_dir(manifest_dir())
            .env("SUDOKU_JUDGE_CACHE", cache.path())
            .env("SUDOKU_JUDGE_CACHE_MAX", "1M")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    // A build of 2 MB, last used a day ago, and one of the user's now.
    let old = cache.path().join("old-cpp-0123456789abcdef0123");
    fs::create_dir(&old).unwrap();
    fs::write(old.join("main"), vec![0u8; 2 << 20]).unwrap();
    fs::File::create(old.join(".built"))
        .unwrap()
        .set_modified(std::time::SystemTime::now() - Duration::from_secs(86_400))
        .unwrap();
    sudoku_judge(&[
        "test",
        "cases/acwing166/sample.in",
        "--submission",
        "tests/fixtures/submissions/ac_program.cpp",
    ]);
    // Over the cap, the build used least recently went; the new one stays.
    assert!(!old.exists());
    let shown = sudoku_judge(&["cache"]);
    assert!(
        shown.starts_with(&format!(
            "build cache: {} (set by SUDOKU_JUDGE_CACHE)\n",
            cache.path().display()
        )),
        "{shown}"
    );
    assert!(
        shown.contains(" of 1 MB, the cap (set by SUDOKU_JUDGE_CACHE_MAX)\n"),
        "{shown}"
    );
    assert!(
        shown.contains("one build may write: 1 MB (set by SUDOKU_JUDGE_CACHE_MAX)\n"),
        "{shown}"
    );
    assert!(shown.contains("1 build, last used first:\n"), "{shown}");
    assert!(shown.contains("  ac_program-cpp-"), "{shown}");
    let cleared = sudoku_judge(&["cache", "clear"]);
    assert!(cleared.starts_with("removed "), "{cleared}");
    assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 0);
}

#[test]
fn a_judge_killed_outright_leaves_no_submission_running() {
    // SIGKILL gives the judge no chance to clean up: the submission must
    // still go, with the process that started it.
    let command_line = "sleep 41.25";
    let sleepers = || -> Vec<String> {
        processes_running(command_line)
            .into_iter()
            .filter(|p| {
                p.split_once(": ")
                    .is_some_and(|(_, cmd)| cmd.starts_with(command_line))
            })
            .collect()
    };
    let mut judge = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args([
            "test",
            "cases/acwing166/sample.in",
            "--cmd",
            command_line,
            "--time-limit",
            "60s",
        ])
        .current_dir(manifest_dir())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        eventually(Duration::from_secs(20), || !sleepers().is_empty()),
        "the submission never started"
    );
    judge.kill().unwrap();
    judge.wait().unwrap();
    assert!(
        eventually(Duration::from_secs(10), || sleepers().is_empty()),
        "left behind: {:?}",
        sleepers()
    );
}

#[test]
fn a_command_whose_child_holds_stdout_is_tle_on_time_and_leaves_nothing() {
    let run = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--cmd",
        "sh tests/fixtures/submissions/tle_child_holds_stdout.sh",
        // Its child sleeps for minutes: TLE at any limit.
        "--time-limit",
        "1s",
        "--format",
        "json",
    ]);
    let report = run.json();
    let (verdict, message) = only_verdict(&report);
    assert_eq!(verdict, "TLE", "{message}");
    assert!(message.contains("of wall time"), "{message}");
    let left = processes_running("sleep 347");
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn ctrl_c_kills_the_submission_and_reports_what_was_judged() {
    let output = interrupted_run(349, &[]);
    assert_eq!(output.status.code(), Some(130));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("interrupted: only the cases above were judged"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("TLE "),
        "the interrupted case is not judged:\n{stdout}"
    );
    let left = processes_running("sleep 349");
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn submission_errors_say_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let odd = write(dir.path(), "solution.txt", "int main() {}\n");
    let neither = write(dir.path(), "helper.cpp", "int helper() { return 1; }\n");
    let cpp = write(dir.path(), "main.cpp", "int main() {}\n");
    let odd = odd.to_str().unwrap();
    let run = judge_with(&["test", "cases", "--submission", odd]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--lang"), "{}", run.stderr);

    let run = judge_with(&["test", "cases", "--submission", neither.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("neither a main function"),
        "{}",
        run.stderr
    );

    // A machine without g++: the error names the tool.
    let empty = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(["test", "cases", "--submission", cpp.to_str().unwrap()])
        .current_dir(manifest_dir())
        .env("PATH", empty.path())
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("`g++` is not installed or not on PATH"),
        "{stderr}"
    );

    let run = judge_with(&["test", "cases", "--cmd", "no-such-program-here"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("not on PATH"), "{}", run.stderr);
}

#[test]
fn a_path_that_is_not_there_is_named_with_where_it_was_looked_for() {
    // Outside a repository with cases/: the argument the user gave is named,
    // not the default they never typed.
    let dir = tempfile::tempdir().unwrap();
    let here = dir.path().canonicalize().unwrap();
    let run = run_in(&here, &["test", "mycases", "--cmd", "./slow"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "error: `mycases` is not a file or directory in {}, nor a case of the suites shipped \
             with sudoku-judge, which are judged where there is no cases/ directory; name the \
             suite directories, case directories or NAME.in files to judge by a path that \
             exists, e.g. `sudoku-judge test path/to/cases`\n",
            here.display()
        )
    );
}

/// LeetCode accepts the textbook backtracking in Python; so must the
/// leetcode37 suite, with room to spare.
#[test]
fn the_textbook_python_solution_is_accepted_on_leetcode37() {
    if !have(
        &["python3"],
        "the_textbook_python_solution_is_accepted_on_leetcode37",
    ) {
        return;
    }
    let (run, report) = judge_fixture_path(
        "cases/leetcode37/references/ac_textbook.py",
        "cases/leetcode37",
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(cases_of(&report).len(), shipped("leetcode37"));
    assert_eq!(only_verdict(&report).0, "AC");
}

/// The memory of a run that is killed is measured as the memory of the same
/// run that finishes: the same Python file, on the same board, stopped at a
/// time limit it needs twice of and accepted under one fifteen times what
/// it needs, shows the same peak. Both verdicts are by its CPU time, which
/// a busy machine does not change.
#[test]
fn a_killed_run_shows_the_memory_it_would_show_finishing() {
    if !have(&["python3"], "the memory of a killed run") {
        return;
    }
    let memory = |limit: &str, verdict: &str| {
        let (run, report) = judge_fixture(
            "ac_spins_2s_then_solves.py",
            "cases/leetcode37/example1",
            &["--time-limit", limit],
        );
        assert_eq!(only_verdict(&report).0, verdict, "{}", run.stdout);
        cases_of(&report)[0]["memory_kb"].as_u64().unwrap()
    };
    let finished = memory("30s", "AC");
    let killed = memory("1s", "TLE");
    assert!(
        killed.abs_diff(finished) * 5 <= finished,
        "killed at the limit: {killed} KB; finished: {finished} KB"
    );
}

/// A file is judged whatever its name: a Python file named like a module
/// of the standard library (which Python would import from the script's
/// directory in its place), or a file named like the driver the judge
/// writes beside it, is built and run as any other, and accepted.
#[test]
fn a_file_named_like_a_module_or_the_driver_is_judged_as_any_other() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = manifest_dir().join("tests/fixtures/submissions");
    let copied = |fixture: &str, name: &str| {
        let into = dir.path().join(name.replace(['/', '.'], "_"));
        std::fs::create_dir_all(&into).unwrap();
        let path = into.join(name.rsplit('/').next().unwrap());
        std::fs::copy(fixtures.join(fixture), &path).unwrap();
        path
    };
    let mut files = Vec::new();
    if have(&["python3"], "Python files named like modules") {
        // `re` and `tokenize` are imported by the standard library itself
        // (the syntax check's `traceback`, the driver's preloaded modules),
        // `string` by the driver.
        for name in ["re.py", "tokenize.py", "string.py", "driver.py"] {
            files.push(copied("ac_leetcode.py", name));
        }
        files.push(copied("ac_program.py", "program/re.py"));
    }
    for (fixture, tools) in [
        ("ac_leetcode.js", &["node"][..]),
        ("ac_leetcode.rb", &["ruby"][..]),
        ("ac_leetcode.php", &["php"][..]),
        ("ac_leetcode.cs", &["mcs", "mono"][..]),
        ("ac_leetcode.rs", &["rustc"][..]),
        ("ac_leetcode.rkt", &["racket"][..]),
    ] {
        if have(tools, "files named like the driver") {
            let extension = fixture.rsplit('.').next().unwrap();
            files.push(copied(fixture, &format!("driver.{extension}")));
        }
    }
    for path in files {
        let (run, report) =
            judge_fixture_path(path.to_str().unwrap(), "cases/leetcode37/example1", &[]);
        assert_eq!(
            only_verdict(&report).0,
            "AC",
            "{}: {}{}",
            path.display(),
            run.stdout,
            run.stderr
        );
    }
}
