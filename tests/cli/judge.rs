//! `test` with the built-in solvers: the table, each verdict and its
//! message, case layouts and formats, judge.toml, the JSON report, help.

use std::fs;

use sudoku_judge::case;

use super::{
    cases_of, drawings, example_suite, judge_with, manifest_dir, on_terminal, processes_in, run,
    run_in, shipped, sound_solvers, verdicts, write, ANSWER, EXAMPLE_IN, EXAMPLE_OUT, PUZZLE,
};

#[test]
fn the_shipped_cases_are_all_accepted() {
    let run = run(&["test", "--format", "json"]);
    let report = run.json();
    let found = case::discover(&[manifest_dir().join("cases")]).unwrap();
    assert_eq!(cases_of(&report).len(), found.len());
    for (id, verdict) in verdicts(&report) {
        assert_eq!(verdict, "AC", "{id}");
    }
    assert_eq!(run.code, 0);
}

#[test]
fn the_table_lists_each_case_and_sums_up() {
    let run = run(&["test", "cases/leetcode37"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with(&format!(
            "judging {} cases with solver propagate\n",
            shipped("leetcode37")
        )),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .contains("           time %limit       cpu      wall   memory  case\n"));
    let example = run
        .stdout
        .lines()
        .find(|l| l.contains("  example1  "))
        .expect("a row for example1");
    assert!(example.starts_with("AC "), "{example}");
    assert!(example.ends_with("  example1  1 puzzle"), "{example}");
    assert!(run.stdout.trim_end().ends_with(&format!(
        "LeetCode would say: Accepted, {0} / {0} testcases passed\n{0} passed, 0 failed",
        shipped("leetcode37")
    )));
}

#[test]
fn the_interface_note_comes_from_judge_toml_once_per_problem() {
    // The built-in solver is a function; cases/acwing166's judge.toml says
    // the problem judges programs.
    let run = run(&["test", "cases/acwing166"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let note = "note: acwing166 judges a program reading stdin; this submission is a function, \
                called through sudoku-judge's driver\n";
    assert_eq!(run.stdout.matches(note).count(), 1, "{}", run.stdout);
    assert!(
        run.stdout.starts_with(&format!(
            "judging {} cases with solver propagate\n{note}",
            shipped("acwing166")
        )),
        "{}",
        run.stdout
    );
    // A program on LeetCode cases.
    let command = format!("{} solve", env!("CARGO_BIN_EXE_sudoku-judge"));
    let run = judge_with(&["test", "cases/leetcode37", "--cmd", &command]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout
            .matches("note: LeetCode 37 calls a class Solution's solveSudoku; this submission is a program")
            .count(),
        1,
        "{}",
        run.stdout
    );
}

#[test]
fn the_summary_says_what_the_real_judge_would() {
    let dir = tempfile::tempdir().unwrap();
    // A solved board (nothing for the faulty solver to leave blank) and
    // two puzzles it gets wrong.
    write(dir.path(), "cases/a.in", &format!("{ANSWER}\nend\n"));
    for name in ["b", "c"] {
        write(
            dir.path(),
            &format!("cases/{name}.in"),
            &format!("{PUZZLE}\nend\n"),
        );
    }
    let judge = |toml: Option<&str>| {
        if let Some(toml) = toml {
            write(dir.path(), "cases/judge.toml", toml);
        }
        let run = run_in(dir.path(), &["test", "--solver", "faulty-leaves-blank"], "");
        assert_eq!(run.code, 1, "{}", run.stderr);
        let lines: Vec<String> = run.stdout.lines().rev().take(2).map(String::from).collect();
        (lines[1].clone(), lines[0].clone())
    };
    let (says, last) = judge(None);
    assert!(says.starts_with("3 cases in "), "no judge is known: {says}");
    assert_eq!(last, "1 passed, 2 failed");
    let (says, _) = judge(Some("problem = \"acwing166\"\n"));
    assert_eq!(says, "AcWing would say: Wrong Answer on test 2 of 3 (b)");
    let (says, _) = judge(Some("problem = \"leetcode37\"\n"));
    assert_eq!(
        says,
        "LeetCode would say: Wrong Answer on testcase 2 of 3 (b)"
    );
}

#[test]
fn colour_always_colours_the_grid_diff() {
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--solver",
        "faulty-wrong-digit",
        "--color",
        "always",
    ]);
    assert_eq!(run.code, 1);
    let row = run
        .stdout
        .lines()
        .find(|l| l.contains("6 *4 |") || l.contains("[9]"))
        .unwrap_or_else(|| panic!("no grid row:\n{}", run.stdout));
    assert!(row.contains("\u{1b}[1m\u{1b}[31m[9]\u{1b}[0m"), "{row:?}");
    assert!(row.contains("\u{1b}[1m*1 \u{1b}[0m"), "{row:?}");
}

#[test]
fn the_progress_line_fits_the_terminal_and_never_precedes_the_header() {
    // Each case takes a moment, so the line is drawn between them.
    let slow = format!(
        "sh -c 'sleep 0.3; exec {} solve'",
        env!("CARGO_BIN_EXE_sudoku-judge")
    );
    let Some(screen) = on_terminal(80, &["test", "cases/acwing166/generated", "--cmd", &slow])
    else {
        return;
    };
    let cases = shipped("acwing166/generated");
    let header = screen
        .find(&format!("judging {cases} cases with"))
        .expect("the header");
    let first_bar = screen.find("judging [").expect("a progress line");
    assert!(header < first_bar, "the bar came first:\n{screen:?}");
    let drawn = drawings(&screen, "judging [");
    assert!(!drawn.is_empty(), "{screen:?}");
    for line in &drawn {
        // Short of the last columns, and not padded out to them: a `^C`
        // echoed after it stays on its line.
        assert!(line.chars().count() <= 77, "{line:?}");
        assert!(!line.ends_with(' '), "{line:?}");
        assert!(!line.contains("eta 0s"), "{line:?}");
    }
    assert!(
        screen.contains(&format!("{cases} passed, 0 failed")),
        "{screen:?}"
    );
}

/// What a textbook solver gets on the shipped cases under a 1 s limit:
/// the cases it times out on, and those it needs near the limit for, where
/// either AC or TLE is right (it is AC on all the others). A case is named
/// TLE when the solver needs four times the limit or more, and is left out
/// of both lists (so AC) when it needs a sixteenth of it or less, measured
/// with the test build on a 2-core AMD EPYC no other build was using (a
/// busy virtual machine inflates CPU times several fold): so the verdicts
/// hold on a machine four times faster or several times slower.
fn textbook_verdicts(solver: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match solver {
        "bitmask" => (
            &["acwing166/generated/seventeen-001"],
            &[
                "acwing166/anti-backtracking",
                "acwing166/generated/slow-for-dfs-001",
                "acwing166/generated/fiendish-001",
                "acwing166/hard",
                "acwing166/minimal",
                "acwing166/sample",
                "leetcode37-hard/generated/fiendish-002",
            ],
        ),
        "backtrack" => (
            &[
                "acwing166/anti-backtracking",
                "acwing166/generated/seventeen-001",
                "acwing166/generated/slow-for-dfs-001",
                "acwing166/minimal",
            ],
            &[
                "acwing166/generated/fiendish-001",
                "acwing166/generated/hard-001",
                "acwing166/generated/medium-001",
                "acwing166/hard",
                "acwing166/sample",
                "formats/zeros",
                "leetcode37-hard/generated/fiendish-001",
                "leetcode37-hard/generated/fiendish-002",
                "leetcode37-hard/generated/medium-002",
                "leetcode37-hard/generated/seventeen-001",
                "leetcode37-hard/generated/seventeen-002",
            ],
        ),
        _ => panic!("{solver} is new: name the cases it times out on in textbook_verdicts"),
    }
}

/// The solvers competitive programmers are judged by fail only by time:
/// never a wrong answer, a crash or a harness error. The fast ones pass
/// all; the textbook ones time out where they are slow and pass the rest.
#[test]
fn every_builtin_solver_on_every_shipped_case() {
    for solver in sound_solvers() {
        let fast = matches!(solver.as_str(), "propagate" | "mrv" | "singles");
        let limit = if fast { "20s" } else { "1s" };
        let run = run(&[
            "test",
            "--solver",
            &solver,
            "--time-limit",
            limit,
            "--format",
            "json",
        ]);
        let verdicts = verdicts(&run.json());
        let (slow, near) = if fast {
            (&[][..], &[][..])
        } else {
            textbook_verdicts(&solver)
        };
        for id in slow.iter().chain(near) {
            assert!(
                verdicts.iter().any(|(case, _)| case == id),
                "{id} is not a shipped case"
            );
        }
        for (id, verdict) in verdicts {
            if slow.contains(&id.as_str()) {
                assert_eq!(verdict, "TLE", "{solver} on {id}");
            } else if near.contains(&id.as_str()) {
                assert!(
                    verdict == "AC" || verdict == "TLE",
                    "{solver} on {id}, near the limit: {verdict}"
                );
            } else {
                assert_eq!(verdict, "AC", "{solver} on {id}");
            }
        }
        assert!(run.code <= 1, "{solver}: exit {}", run.code);
    }
}

#[test]
fn a_wrong_digit_is_wa_with_reason_and_grid_diff() {
    // The AcWing sample: r9c9 is blank, so the faulty solver's wrong digit
    // there breaks a row, a column and a box.
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--solver",
        "faulty-wrong-digit",
    ]);
    assert_eq!(run.code, 1);
    let out = &run.stdout;
    assert!(out.contains("\nWA "), "{out}");
    // The row says it in a few words; the failure block whole.
    let row = out.lines().find(|l| l.starts_with("WA ")).unwrap();
    assert!(
        row.ends_with("  sample  puzzle 1: row 9 repeats 9 (and 2 more clashes); 1 more wrong"),
        "{row}"
    );
    assert!(
        out.contains(
            "why:      puzzle 1 (input line 1): row 9 has two 9s (r9c8 and r9c9); \
             column 9 has two 9s (r4c9 and r9c9)"
        ),
        "the reason names the broken units and their cells:\n{out}"
    );
    // Expected beside the answer, the givens starred and only the wrong
    // cell bracketed: not r9c8 or r4c9, the right cells it clashes with.
    assert!(
        out.contains("|*1  6 *4 | 8  7  5 | 2  9  3 |   |*1  6 *4 | 8  7  5 | 2  9 [9]|"),
        "{out}"
    );
    assert!(
        out.contains("| 8 *2  5 | 4  3  7 | 1 *6  9 |   | 8 *2  5 | 4  3  7 | 1 *6  9 |"),
        "{out}"
    );
    assert!(
        out.contains("*5 is a given; [5] is where your answer differs from the expected one"),
        "{out}"
    );
    assert!(
        out.contains(
            "rerun:    sudoku-judge test cases/acwing166/sample.in --solver faulty-wrong-digit"
        ),
        "{out}"
    );
    assert!(out.trim_end().ends_with("0 passed, 1 failed"), "{out}");
}

#[test]
fn a_changed_given_is_wa_and_shown_against_the_puzzle_without_an_answer_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", EXAMPLE_IN);
    let run = run_in(
        dir.path(),
        &["test", ".", "--solver", "faulty-wrong-digit"],
        "",
    );
    assert_eq!(run.code, 1);
    let out = &run.stdout;
    assert!(
        out.contains("why:      the answer: r9c9 was given as 9, the answer has 1;"),
        "{out}"
    );
    assert!(
        out.contains("    puzzle                            your answer"),
        "{out}"
    );
    // The changed given is to blame, not the right 1 it clashes with.
    assert!(
        out.contains("| .  .  . | .  8  . | .  7  9 |   | 3  4  5 | 2 *8  6 | 1 *7 [1]|"),
        "{out}"
    );
}

#[test]
fn each_kind_of_wrong_answer_is_named() {
    let dir = example_suite();
    for (solver, reason) in [
        (
            "faulty-changes-given",
            "r1c1 was given as 5, the answer has 1",
        ),
        ("faulty-leaves-blank", "r1c3 is empty"),
    ] {
        let run = run_in(
            dir.path(),
            &["test", ".", "--solver", solver, "--format", "json"],
            "",
        );
        assert_eq!(run.code, 1, "{solver}");
        let report = run.json();
        let case = &cases_of(&report)[0];
        assert_eq!(case["verdict"], "WA", "{solver}");
        let message = case["message"].as_str().unwrap();
        assert!(message.contains(reason), "{solver}: {message}");
    }
}

#[test]
fn an_expected_file_that_does_not_match_its_input_is_a_case_error() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "three.in",
        &format!("{PUZZLE}\n{PUZZLE}\n{PUZZLE}\nend\n"),
    );
    write(dir.path(), "three.out", &format!("{ANSWER}\n{ANSWER}\n"));
    let run = run_in(dir.path(), &["test", "."], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stdout.contains("three.out has 2 answers for 3 puzzles"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_panic_is_re_with_the_panic_message() {
    let dir = example_suite();
    let run = run_in(
        dir.path(),
        &["test", ".", "--solver", "faulty-panic", "--format", "json"],
        "",
    );
    assert_eq!(run.code, 1);
    let report = run.json();
    let case = &cases_of(&report)[0];
    assert_eq!(case["verdict"], "RE");
    let message = case["message"].as_str().unwrap();
    assert!(message.starts_with("panicked at "), "{message}");
    assert!(message.contains("index out of bounds"), "{message}");
}

#[test]
fn an_endless_loop_is_tle_killed_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["case1", "case2", "case3"] {
        write(dir.path(), &format!("{name}.in"), EXAMPLE_IN);
        write(dir.path(), &format!("{name}.out"), EXAMPLE_OUT);
    }
    let run = run_in(
        dir.path(),
        &[
            "test",
            ".",
            "--solver",
            "faulty-loop",
            // It loops for ever: TLE at any limit, and a generous one
            // leaves a busy machine no race to win.
            "--time-limit",
            "1s",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(run.code, 1);
    let report = run.json();
    assert_eq!(
        verdicts(&report),
        [
            ("case1".into(), "TLE".into()),
            ("case2".into(), "TLE".into()),
            ("case3".into(), "TLE".into())
        ]
    );
    let message = cases_of(&report)[0]["message"].as_str().unwrap();
    assert!(message.contains("the 1000 ms limit"), "{message}");
    // Killed, with its whole process group, before the judge moved on.
    let left = processes_in(dir.path(), "worker --solver faulty-loop");
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_malformed_case_names_file_line_and_column_and_the_others_are_judged() {
    let run = run(&["test", "tests/fixtures/malformed", "--format", "json"]);
    assert_eq!(run.code, 2, "a case that cannot be judged exits 2");
    let report = run.json();
    let by_id = |id: &str| {
        cases_of(&report)
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no case {id}"))
            .clone()
    };
    assert_eq!(by_id("good")["verdict"], "AC");
    for (id, location, words) in [
        (
            "bad-character",
            "bad-character.in:2:5:",
            "'x' is not a cell",
        ),
        ("short-line", "short-line.in:1:80:", "the line has 79 cells"),
        (
            "conflicting-givens",
            "conflicting-givens.in:1:2:",
            "row 1 has two 5s (r1c1 and r1c2)",
        ),
        ("eight-rows", "eight-rows.in:1:", "the board has 8 rows"),
    ] {
        let case = by_id(id);
        assert!(case["verdict"].is_null(), "{id}");
        let error = case["error"].as_str().unwrap();
        assert!(
            error.starts_with("tests/fixtures/malformed/") && error.contains(location),
            "{id}: {error}"
        );
        assert!(error.contains(words), "{id}: {error}");
    }
    assert_eq!(report["errors"], 4);
    assert_eq!(report["passed"], 1);
}

#[test]
fn the_table_shows_a_harness_error_with_a_hint() {
    let run = run(&["test", "tests/fixtures/malformed/bad-character.in"]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("ERROR"), "{}", run.stdout);
    assert!(run.stdout.contains("hint:     fix the case files; `sudoku-judge test tests/fixtures/malformed/bad-character.in` rechecks this case alone"));
}

/// A program the kernel refuses to run fails at its exec, after the
/// judge has started feeding it: every case still says why, and the judge
/// goes on to the next.
#[test]
fn a_program_the_kernel_cannot_run_is_an_error_naming_why_for_every_case() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "cases/a.in", &format!("{PUZZLE}\nend\n"));
    write(dir.path(), "cases/b.in", &format!("{PUZZLE}\nend\n"));
    let program = write(dir.path(), "not-a-program", "\x7fELF and nothing else");
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    let run = run_in(
        dir.path(),
        &[
            "test",
            "--cmd",
            "./not-a-program",
            "--color",
            "never",
            "cases",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    for case in ["a", "b"] {
        assert!(
            run.stdout.contains(&format!("ERROR {case}\n")),
            "{}",
            run.stdout
        );
    }
    assert_eq!(
        run.stdout
            .matches("failed to run `./not-a-program`: Exec format error")
            .count(),
        4,
        "each case, in the table and in the failures: {}",
        run.stdout
    );
    // The program's fault, not the judge's: no rerun will mend it.
    assert!(!run.stdout.contains("the judge failed"), "{}", run.stdout);
    assert_eq!(
        run.stdout
            .matches("hint:     the program could not be started: build it for this machine")
            .count(),
        2,
        "{}",
        run.stdout
    );
}

#[test]
fn cases_run_in_natural_order_and_hidden_and_backup_files_are_skipped() {
    let run = run(&["test", "tests/fixtures/order", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let ids: Vec<String> = verdicts(&run.json())
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(ids, ["case1", "case2", "case10"]);
}

#[test]
fn both_layouts_crlf_a_bom_and_a_missing_expected_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A case directory with input.txt/expected.txt, CRLF and a BOM.
    let crlf = |s: &str| format!("\u{feff}{}", s.replace('\n', "\r\n"));
    let grid: String = PUZZLE
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect();
    write(root, "suite/dir-case/input.txt", &crlf(&grid));
    let answer_grid: String = ANSWER
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect();
    write(root, "suite/dir-case/expected.txt", &crlf(&answer_grid));
    // A case directory using in/out names.
    write(root, "suite/short-names/in", &format!("{PUZZLE}\nend\n"));
    write(root, "suite/short-names/out", &format!("{ANSWER}\n"));
    // A flat pair with .ans.
    write(root, "suite/flat.in", EXAMPLE_IN);
    write(root, "suite/flat.ans", EXAMPLE_OUT);
    // No expected file: the rules alone judge it.
    write(root, "suite/no-answer.in", &format!("{PUZZLE}\nend\n"));
    let run = run_in(root, &["test", "suite", "--format", "json"], "");
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report = run.json();
    assert_eq!(
        verdicts(&report),
        [
            ("dir-case".into(), "AC".into()),
            ("flat".into(), "AC".into()),
            ("no-answer".into(), "AC".into()),
            ("short-names".into(), "AC".into())
        ]
    );
    let formats: Vec<&str> = cases_of(&report)
        .iter()
        .map(|c| c["format"].as_str().unwrap())
        .collect();
    assert_eq!(formats, ["grid", "leetcode", "acwing", "acwing"]);
    assert!(cases_of(&report)[2]["expected_path"].is_null());

    // The exact checker needs an expected file, and says so.
    let exact = run_in(
        root,
        &["test", "suite/no-answer.in", "--checker", "exact"],
        "",
    );
    assert_eq!(exact.code, 2);
    assert!(
        exact
            .stdout
            .contains("the exact checker needs an expected output"),
        "{}",
        exact.stdout
    );
}

#[test]
fn judge_toml_sets_suite_defaults_and_flags_override_it() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "suite/judge.toml",
        "time_limit = \"1500ms\"\nmemory_limit = \"128M\"\n",
    );
    write(dir.path(), "suite/a.in", EXAMPLE_IN);
    let limits = |args: &[&str]| {
        let run = run_in(dir.path(), args, "");
        assert_eq!(run.code, 0, "{}", run.stdout);
        let case = cases_of(&run.json())[0].clone();
        (
            case["time_limit_ms"].as_f64().unwrap(),
            case["memory_limit_kb"].as_u64().unwrap(),
        )
    };
    assert_eq!(
        limits(&["test", "suite", "--format", "json"]),
        (1500.0, 131072)
    );
    assert_eq!(
        limits(&[
            "test",
            "suite",
            "--format",
            "json",
            "--time-limit",
            "2s",
            "--memory-limit",
            "64M"
        ]),
        (2000.0, 65536)
    );

    write(dir.path(), "bad/judge.toml", "time_limt = \"1s\"\n");
    write(dir.path(), "bad/a.in", EXAMPLE_IN);
    let run = run_in(dir.path(), &["test", "bad"], "");
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("judge.toml"), "{}", run.stdout);
    assert!(run.stdout.contains("time_limt"), "{}", run.stdout);
}

#[test]
fn the_json_report_has_the_documented_fields() {
    let run = run(&[
        "test",
        "cases/acwing166/sample.in",
        "--format",
        "json",
        "--repeat",
        "3",
    ]);
    assert_eq!(run.code, 0);
    let report = run.json();
    for key in [
        "passed",
        "failed",
        "errors",
        "total",
        "elapsed_ms",
        "baseline",
    ] {
        assert!(report.get(key).is_some(), "missing {key}");
    }
    let case = &cases_of(&report)[0];
    for key in [
        "id",
        "path",
        "expected_path",
        "verdict",
        "message",
        "details",
        "time_ms",
        "time_limit_ms",
        "limit_percent",
        "runs_ms",
        "puzzles",
        "puzzle_ms",
        "slowest_puzzle",
        "wall_ms",
        "cpu_ms",
        "memory_kb",
        "memory_limit_kb",
        "format",
        "checker",
        "warnings",
        "error",
        "baseline",
    ] {
        assert!(case.get(key).is_some(), "missing {key}");
    }
    // The built-in solver answers both boards within microseconds: when
    // the two answers arrive together, neither has a time of its own.
    let slowest = &case["slowest_puzzle"];
    assert!(
        slowest.is_null()
            || matches!(slowest["puzzle"].as_u64(), Some(1 | 2))
                && slowest["line"] == slowest["puzzle"],
        "none, or one of the two puzzles, each on its own line: {slowest}"
    );
    assert_eq!(case["puzzles"], 2);
    assert_eq!(case["runs_ms"].as_array().unwrap().len(), 3);
    assert_eq!(case["time_limit_ms"], 1000.0, "from the suite's judge.toml");
    assert_eq!(case["memory_limit_kb"], 65536, "AcWing 166's 64 MB");
    assert!(
        case["memory_kb"].as_u64().unwrap() > 0,
        "peak memory is measured"
    );
}

#[test]
fn help_explains_the_layouts_and_exit_codes() {
    let help = run(&["test", "--help"]);
    assert_eq!(help.code, 0);
    for words in [
        "NAME.in",
        "judge.toml",
        "Exit code",
        "--time-limit",
        "--checker",
        "--follow-outside-links",
    ] {
        assert!(
            help.stdout.contains(words),
            "missing {words}:\n{}",
            help.stdout
        );
    }
    let missing = run(&["test", "no/such/dir"]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("no/such/dir"), "{}", missing.stderr);
}

#[test]
fn a_time_scale_multiplies_the_limit_and_shows_in_the_header() {
    let dir = example_suite();
    fs::write(
        dir.path().join("judge.toml"),
        "time_limit = \"1s\"\ntime_scale = 1.5\n",
    )
    .unwrap();
    let table = run_in(dir.path(), &["test", "."], "");
    assert_eq!(table.code, 0, "{}", table.stdout);
    assert!(
        table
            .stdout
            .lines()
            .next()
            .unwrap()
            .ends_with(", time limits x 1.5 (time_scale)"),
        "{}",
        table.stdout
    );
    let json = run_in(
        dir.path(),
        &["test", ".", "--time-scale", "2", "--format", "json"],
        "",
    );
    assert_eq!(
        cases_of(&json.json())[0]["time_limit_ms"].as_f64(),
        Some(2000.0),
        "{}",
        json.stdout
    );
    let bad = run_in(dir.path(), &["test", ".", "--time-scale=-1"], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("invalid --time-scale"),
        "{}",
        bad.stderr
    );
}
