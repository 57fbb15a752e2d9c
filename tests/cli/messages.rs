//! What the judge says when something is off: a compile error where it
//! can be read, debug output cut honestly, and messages that name the fix.

use super::{cases_of, have, judge_with, run_in, write, PUZZLE};

fn fixture(name: &str) -> String {
    super::manifest_dir()
        .join("tests/fixtures/submissions")
        .join(name)
        .display()
        .to_string()
}

/// The last block of `text`: what follows its last blank line.
fn last_block(text: &str) -> &str {
    let text = text.trim_end();
    text.rsplit_once("\n\n").map_or(text, |(_, last)| last)
}

#[test]
fn a_compile_error_ends_the_report_with_the_compilers_message() {
    if !have(&["g++"], "compile error at the end") {
        return;
    }
    let path = "tests/fixtures/submissions/ce_syntax.cpp";
    let run = judge_with(&["test", "cases/leetcode37", "--submission", path]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    // Nothing but the notice of a slow build (a busy machine) goes to
    // stderr: the message belongs at the end of the report.
    assert!(
        run.stderr.lines().all(|l| l.starts_with("compiling ")),
        "{}",
        run.stderr
    );
    let last = last_block(&run.stdout);
    assert!(
        last.starts_with(&format!("{path} did not compile:\n")),
        "the message is the last thing on screen:\n{}",
        run.stdout
    );
    assert!(last.contains("ce_syntax.cpp:6:29: error"), "{}", run.stdout);
    assert_eq!(
        run.stdout.matches("ce_syntax.cpp:6:29: error").count(),
        1,
        "{}",
        run.stdout
    );
    // Each row says CE in a few words, not a sentence repeated per case.
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("CE "))
        .collect();
    assert!(!rows.is_empty(), "{}", run.stdout);
    for row in rows {
        let note = row.rsplit_once("  ").map_or(row, |(_, note)| note);
        assert!(note.len() <= 40, "{row}");
    }
}

#[test]
fn the_debug_output_block_counts_what_it_leaves_out_and_says_where_it_was_cut() {
    if !have(&["python3"], "debug output block") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "cases/a.in", &format!("{PUZZLE}\nend\n"));
    // 4,158 lines of 32 bytes, about 130 KB: past the 64 KB kept. The board
    // is left as it is, a wrong answer, so the failure block shows them.
    write(
        dir.path(),
        "sol.py",
        "class Solution:\n    def solveSudoku(self, board):\n        for i in range(1, 4159):\n            \
         print(f'debug line {i:5} ' + 'x' * 15)\n",
    );
    let run = run_in(dir.path(), &["test", "cases", "--submission", "sol.py"], "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let block: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.contains("its own stdout"))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .collect();
    assert!(!block.is_empty(), "{}", run.stdout);
    let shown = block.iter().filter(|l| l.contains("debug line")).count();
    let more = block
        .iter()
        .find_map(|l| l.trim().strip_prefix("... "))
        .unwrap_or_else(|| panic!("no count of lines left out: {}", run.stdout));
    let left_out: usize = more
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{more}"));
    assert_eq!(shown + left_out, 4158, "{}", run.stdout);
    assert!(
        block.last().unwrap().contains("debug line  4158"),
        "the last line is kept: {}",
        run.stdout
    );
    assert!(more.contains("64 KB"), "{more}");
}

#[test]
fn a_built_in_solver_killed_on_time_names_the_cpu_it_used_and_no_flushing() {
    let run = judge_with(&[
        "test",
        "cases/acwing166/sample.in",
        "--solver",
        "faulty-loop",
        "--format",
        "json",
    ]);
    let report = run.json();
    let case = &cases_of(&report)[0];
    assert_eq!(case["verdict"], "TLE", "{report}");
    let message = case["message"].as_str().unwrap();
    assert!(!message.contains("flush"), "{message}");
    // A built-in solver is charged as a function is: the CPU time its
    // process spent on the boards. Killed by the CPU cap, the message names
    // that charged time; killed by the wall-time cap (on a busy machine its
    // CPU time can reach the limit as the wall cap fires), it names the
    // process's whole CPU time, which covers the charged time and its start.
    let charged = case["time_ms"].as_f64().unwrap();
    let figure = |text: &str| -> f64 {
        text.parse()
            .unwrap_or_else(|_| panic!("a figure in {message}"))
    };
    if let Some((_, rest)) = message.split_once(", with ") {
        let said = figure(rest.split_once(" ms of CPU time charged").unwrap().0);
        assert!(
            (said - charged).abs() <= 1.0,
            "{message} vs charged {charged}"
        );
    } else {
        let said = message
            .split_once(" of wall time (CPU ")
            .and_then(|(_, rest)| rest.split_once(" ms), over the 1000 ms limit"))
            .map(|(ms, _)| figure(ms))
            .unwrap_or_else(|| panic!("the CPU time it was charged: {message}"));
        assert!(said >= charged - 1.0, "{message} vs charged {charged}");
    }
}

#[test]
fn bench_says_how_a_failing_command_ended() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.txt", &format!("{PUZZLE}\n"));
    let run = run_in(dir.path(), &["bench", "p.txt", "--cmd", "false"], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("Code("), "{}", run.stderr);
    assert!(!run.stderr.contains("None"), "{}", run.stderr);
    assert!(run.stderr.contains("exited with code 1"), "{}", run.stderr);
}

#[test]
fn limits_without_a_unit_get_one_hint_with_the_unit() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    let time = run_in(dir.path(), &["test", "a.in", "--time-limit", "1"], "");
    assert_eq!(time.code, 2, "{}", time.stderr);
    assert!(time.stderr.contains("`1s`"), "{}", time.stderr);
    assert_eq!(time.stderr.matches("e.g.").count(), 1, "{}", time.stderr);
    assert!(!time.stderr.contains("for example"), "{}", time.stderr);
    let memory = run_in(dir.path(), &["test", "a.in", "--memory-limit", "64"], "");
    assert_eq!(memory.code, 2, "{}", memory.stderr);
    assert!(memory.stderr.contains("`64M`"), "{}", memory.stderr);
}

#[test]
fn driver_with_a_case_that_is_not_there_says_what_case_takes() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(
        dir.path(),
        &[
            "driver",
            &fixture("ac_leetcode.py"),
            "--out",
            "debug",
            "--case",
            "cases/nosuch",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("sudoku-judge test"), "{}", run.stderr);
    assert!(run.stderr.contains("--case"), "{}", run.stderr);
    assert!(run.stderr.contains("cases/nosuch"), "{}", run.stderr);
}

#[test]
fn a_broken_judge_toml_shows_its_useful_line_in_the_table() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "s/judge.toml", "problem = \n");
    write(dir.path(), "s/a.in", &format!("{PUZZLE}\nend\n"));
    let run = run_in(dir.path(), &["test", "s"], "");
    assert_eq!(run.code, 2, "{}", run.stdout);
    let table: String = run.stdout.split("failures:").next().unwrap().to_string();
    assert!(
        table.contains("string values must be quoted"),
        "the row says what is wrong:\n{}",
        run.stdout
    );
    assert!(table.contains("line 1, column 11"), "{}", run.stdout);
}

#[test]
fn a_python_syntax_error_shows_the_users_file_only() {
    if !have(&["python3"], "python syntax error") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    write(
        dir.path(),
        "syn.py",
        "class Solution:\n    def solveSudoku(self, board):\n        x = (\n",
    );
    let run = run_in(dir.path(), &["test", "a.in", "--submission", "syn.py"], "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("File \"syn.py\", line 3"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("<string>"), "{}", run.stdout);
}

#[test]
fn cpp_saved_as_python_is_told_to_use_lang_cpp() {
    if !have(&["python3"], "C++ saved as .py") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    std::fs::copy(fixture("ac_program.cpp"), dir.path().join("main.py")).unwrap();
    let run = run_in(dir.path(), &["test", "a.in", "--submission", "main.py"], "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("--lang cpp"),
        "a hint names the language:\n{}",
        run.stdout
    );
}
