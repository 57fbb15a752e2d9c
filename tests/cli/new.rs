//! `sudoku-judge new`: the file it writes for each language builds and
//! runs, and earns a real verdict on the shipped suites (never CE); it
//! never overwrites a file; and it says what it wrote and what to run next.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use sudoku_judge::runner::lang::Language;

use super::{build_cache, have, manifest_dir, write, Run, HANG_GUARD};

/// Runs the binary in `dir`, with the tests' build cache.
pub(crate) fn run_here(dir: &Path, args: &[&str]) -> Run {
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

/// The verdicts and reasons of a JSON report, one a case.
fn verdicts(run: &Run) -> Vec<(String, String)> {
    run.json()["cases"]
        .as_array()
        .expect("a cases array")
        .iter()
        .map(|case| {
            (
                case["verdict"].as_str().unwrap_or("ERROR").to_owned(),
                case["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// `new` for `id` on `problem` in a fresh directory, then `test` of what it
/// wrote on the shipped `suite`: the verdicts of every case.
fn new_then_test(id: &str, problem: &str, suite: &str) -> Option<(String, Vec<(String, String)>)> {
    let language = Language::find(id).expect("a judged language");
    let tools: Vec<&str> = language.spec().tools.iter().map(|t| t.command).collect();
    if !have(&tools, &format!("new --lang {id}")) {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let wrote = run_here(dir.path(), &["new", "--lang", id, "--problem", problem]);
    assert_eq!(wrote.code, 0, "{}{}", wrote.stdout, wrote.stderr);
    let first = wrote.stdout.lines().next().unwrap_or_default();
    let file = first
        .strip_prefix("wrote ")
        .and_then(|rest| rest.split_once(':'))
        .map(|(file, _)| file.to_string())
        .unwrap_or_else(|| panic!("no `wrote FILE:` line in\n{}", wrote.stdout));
    assert!(dir.path().join(&file).is_file(), "{file} was not written");
    let suite = manifest_dir().join(suite);
    let judged = run_here(
        dir.path(),
        &[
            "test",
            suite.to_str().unwrap(),
            "--problem",
            problem,
            "--submission",
            &file,
            "--format",
            "json",
        ],
    );
    assert_eq!(judged.code, 1, "{}{}", judged.stdout, judged.stderr);
    Some((file, verdicts(&judged)))
}

/// LeetCode's template, as written, builds and runs: it returns the board
/// unchanged, and the judge says so.
fn leetcode_template_is_judged(id: &str) {
    let Some((file, verdicts)) = new_then_test(id, "leetcode37", "cases/leetcode37") else {
        return;
    };
    let function = Language::find(id).unwrap().spec().leetcode.function();
    assert!(!verdicts.is_empty());
    for (verdict, reason) in &verdicts {
        assert_eq!(verdict, "WA", "{file}");
        assert!(
            reason.starts_with(&format!(
                "your {function} left the board unchanged: fill in the board it is given, in place"
            )),
            "{file}: {reason}"
        );
    }
}

/// The program skeleton builds, reads every puzzle and prints it back:
/// WA on every case, never CE.
fn program_skeleton_is_judged(id: &str, problem: &str) {
    let Some((file, verdicts)) = new_then_test(id, problem, "cases/acwing166") else {
        return;
    };
    assert!(!verdicts.is_empty());
    for (verdict, reason) in &verdicts {
        assert_eq!(verdict, "WA", "{file}: {reason}");
        assert!(
            reason.starts_with("your program printed ")
                && reason.contains(" unchanged")
                && !reason.contains("expected"),
            "{file}: {reason}"
        );
    }
}

macro_rules! every_language {
    ($($id:ident),* $(,)?) => {
        mod leetcode_template_wa {
            $(
                #[test]
                fn $id() {
                    super::leetcode_template_is_judged(stringify!($id));
                }
            )*
        }
        mod acwing_skeleton_wa {
            $(
                #[test]
                fn $id() {
                    super::program_skeleton_is_judged(stringify!($id), "acwing166");
                }
            )*
        }
    };
}

every_language!(
    cpp, c, rust, python, java, go, javascript, typescript, csharp, kotlin, scala, ruby, php,
    racket,
);

#[test]
fn the_table_names_every_language() {
    // The macro's list above is the languages judged, so none goes untested.
    let listed = [
        "cpp",
        "c",
        "rust",
        "python",
        "java",
        "go",
        "javascript",
        "typescript",
        "csharp",
        "kotlin",
        "scala",
        "ruby",
        "php",
        "racket",
    ];
    let judged: Vec<&str> = Language::all().iter().map(|l| l.spec().id).collect();
    assert_eq!(judged, listed);
}

#[test]
fn the_cpp_skeleton_builds_as_poj_builds() {
    // POJ's G++ is C++98: the skeleton must build with -std=gnu++98.
    program_skeleton_is_judged("cpp", "poj3074");
}

#[test]
fn an_existing_file_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let mine = write(dir.path(), "solution.py", "# my work\n");
    let refused = run_here(dir.path(), &["new", "--lang", "python"]);
    assert_eq!(refused.code, 2, "{}{}", refused.stdout, refused.stderr);
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "# my work\n");
    assert!(
        refused.stderr.contains(
            "error: solution.py exists, and `sudoku-judge new` never overwrites a file; name \
             another, e.g. `sudoku-judge new --lang python --problem leetcode37 solution2.py`"
        ),
        "{}",
        refused.stderr
    );
    // Named by the user too.
    let named = run_here(dir.path(), &["new", "solution.py"]);
    assert_eq!(named.code, 2, "{}", named.stderr);
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "# my work\n");
    // The name it suggests is free, and takes.
    let other = run_here(dir.path(), &["new", "--lang", "python", "solution2.py"]);
    assert_eq!(other.code, 0, "{}", other.stderr);
    assert!(dir.path().join("solution2.py").is_file());
}

#[test]
fn it_says_what_it_wrote_and_the_command_to_judge_it() {
    // In a clone: cases/ holds several problems, so the problem is the
    // default, and the suite of that problem is named.
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    copy_dir(
        &manifest_dir().join("cases/leetcode37"),
        &cases.join("leetcode37"),
    );
    copy_dir(
        &manifest_dir().join("cases/acwing166"),
        &cases.join("acwing166"),
    );
    let java = run_here(dir.path(), &["new", "--lang", "java"]);
    assert_eq!(java.code, 0, "{}", java.stderr);
    assert_eq!(
        java.stdout,
        "wrote Solution.java: LeetCode's Java template for problem 37, with solveSudoku\n\
         problem: leetcode37, the default (--problem acwing166 or poj3074 writes a program \
         reading stdin)\n\
         until you fill in solveSudoku, the judge says WA: your solveSudoku left the board \
         unchanged\n\
         next: sudoku-judge test cases/leetcode37 --submission Solution.java\n"
    );
    assert!(std::fs::read_to_string(dir.path().join("Solution.java"))
        .unwrap()
        .contains("public void solveSudoku(char[][] board) {"));

    let program = run_here(
        dir.path(),
        &["new", "--lang", "cpp", "--problem", "poj3074", "work/"],
    );
    assert_eq!(program.code, 0, "{}", program.stderr);
    assert_eq!(
        program.stdout,
        "wrote work/main.cpp: a C++ program for poj3074 reading puzzle lines until `end`, one \
         answer line each\n\
         until you fill in its solve function, the judge says WA: your program printed the \
         puzzle unchanged\n\
         next: sudoku-judge test cases/acwing166 --problem poj3074 --submission work/main.cpp\n"
    );

    // A name that does not tell the language keeps `--lang` in the command.
    let txt = run_here(dir.path(), &["new", "--lang", "rust", "sol.txt"]);
    assert_eq!(txt.code, 0, "{}", txt.stderr);
    assert!(
        txt.stdout.ends_with(
            "next: sudoku-judge test cases/leetcode37 --submission sol.txt --lang rust\n"
        ),
        "{}",
        txt.stdout
    );

    // Without a language, it asks for one.
    let unsure = run_here(dir.path(), &["new"]);
    assert_eq!(unsure.code, 2);
    assert!(
        unsure
            .stderr
            .starts_with("error: which language? name it with --lang (one of cpp, "),
        "{}",
        unsure.stderr
    );
}

/// Where there is no cases/, `new` names the shipped suite of the problem,
/// and the command it gives judges that suite alone (`leetcode37`, not
/// `leetcode37-hard` beside it): what LeetCode would say counts the cases
/// the last line counts.
#[test]
fn the_command_new_gives_judges_the_problems_suite_alone() {
    if !have(&["python3"], "the command new gives") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let wrote = run_here(dir.path(), &["new", "--lang", "python"]);
    assert_eq!(wrote.code, 0, "{}", wrote.stderr);
    let next = wrote
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix("next: "))
        .unwrap_or_else(|| panic!("no next: line in\n{}", wrote.stdout));
    assert_eq!(
        next,
        "sudoku-judge test leetcode37 --submission solution.py"
    );
    let args: Vec<&str> = next.split_whitespace().skip(1).collect();
    let judged = run_here(dir.path(), &args);
    assert_eq!(judged.code, 1, "{}{}", judged.stdout, judged.stderr);
    let table = &judged.stdout;
    let cases: usize = table
        .lines()
        .find_map(|line| line.strip_prefix("judging "))
        .and_then(|rest| rest.split_once(' '))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no `judging N cases` line in\n{table}"));
    let shipped = sudoku_judge::shipped::files()
        .iter()
        .filter(|(path, _)| path.starts_with("leetcode37"))
        .filter(|(path, _)| path.file_name().is_some_and(|n| n == "input.txt"))
        .count();
    assert_eq!(cases, shipped, "{table}");
    assert!(!table.contains("leetcode37-hard"), "{table}");
    assert!(
        table.contains(&format!(
            "\nLeetCode (leetcode37) would say: Wrong Answer on testcase 1 of {cases} ("
        )),
        "{table}"
    );
    assert!(
        table.ends_with(&format!("\n0 passed, {cases} failed\n")),
        "{table}"
    );
}

#[test]
fn the_problem_of_every_case_under_cases_is_the_default() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &manifest_dir().join("cases/acwing166"),
        &dir.path().join("cases/acwing166"),
    );
    let wrote = run_here(dir.path(), &["new", "--lang", "python"]);
    assert_eq!(wrote.code, 0, "{}", wrote.stderr);
    assert_eq!(
        wrote.stdout,
        "wrote main.py: a Python 3 program for acwing166 reading puzzle lines until `end`, one \
         answer line each\n\
         problem: acwing166, as every case under cases/ is (--problem picks another)\n\
         until you fill in its solve function, the judge says WA: your program printed the \
         puzzle unchanged\n\
         next: sudoku-judge test --submission main.py\n"
    );
}

#[test]
fn help_says_what_it_writes_and_that_it_never_overwrites() {
    let help = run_here(&manifest_dir(), &["new", "--help"]);
    assert_eq!(help.code, 0);
    for words in [
        "Write the file to start a solution from",
        "LeetCode's own template",
        "reads puzzle lines until `end`",
        "never overwritten",
        "--lang <LANG>",
        "--problem <PROBLEM>",
        "sudoku-judge new --lang cpp --problem acwing166",
    ] {
        assert!(help.stdout.contains(words), "{words:?} in\n{}", help.stdout);
    }
}

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
