//! Every language beyond the first four, judged by verdict: a LeetCode-style
//! file that prints debug output and a program, both accepted; a wrong
//! answer; a crash, with its runtime's cause and the line of the user's
//! file; a compile error, shown once. A language whose toolchain is absent
//! prints a SKIP line instead, or fails under `SUDOKU_JUDGE_REQUIRE=all`.

use super::{cases_of, have, judge_fixture, judge_with, only_verdict};

/// One language's fixtures in `tests/fixtures/submissions`.
struct Fixtures {
    tools: &'static [&'static str],
    leetcode: &'static str,
    program: &'static str,
    wrong: &'static str,
    /// A crash, and words its verdict's message must hold.
    crash: (&'static str, &'static str),
    /// A compile error, and the place the compiler's message names.
    compile_error: (&'static str, &'static str),
}

fn judge_every_verdict(language: &str, f: &Fixtures) {
    if !have(f.tools, language) {
        return;
    }
    let slow = ["--time-limit", "5s"];
    // Every shipped format reaches the function as a board.
    for cases in ["cases/leetcode37", "cases/acwing166/medium.in"] {
        let (run, report) = judge_fixture(f.leetcode, cases, &slow);
        assert_eq!(
            only_verdict(&report).0,
            "AC",
            "{} on {cases}: {}",
            f.leetcode,
            run.stdout
        );
        assert_eq!(report["build"]["interface"], "leetcode", "{}", f.leetcode);
        for case in cases_of(&report) {
            // Its debug output is kept apart from its answers, and each
            // case shows what was printed for its own boards, though every
            // case ran in one process.
            let stdout = case["stdout"].as_str().unwrap();
            assert!(
                stdout
                    .lines()
                    .all(|line| line.starts_with("solving, blanks:")),
                "{stdout:?}"
            );
            assert_eq!(
                stdout.lines().count() as u64,
                case["puzzles"].as_u64().unwrap(),
                "{}: {stdout:?}",
                case["id"]
            );
            assert!(case["cpu_ms"].as_f64().unwrap() > 0.0, "{case}");
        }

        let (run, report) = judge_fixture(f.program, cases, &slow);
        assert_eq!(
            only_verdict(&report).0,
            "AC",
            "{} on {cases}: {}",
            f.program,
            run.stdout
        );
        assert_eq!(report["build"]["interface"], "program", "{}", f.program);
    }

    let (_, report) = judge_fixture(f.wrong, "cases/acwing166/sample.in", &[]);
    assert_eq!(only_verdict(&report).0, "WA", "{}", f.wrong);

    let (file, words) = f.crash;
    let (_, report) = judge_fixture(file, "cases/leetcode37/example1", &[]);
    let (verdict, message) = only_verdict(&report);
    assert_eq!(verdict, "RE", "{file}: {message}");
    assert!(message.contains(words), "{file}: {message}");

    let (file, place) = f.compile_error;
    let path = format!("tests/fixtures/submissions/{file}");
    let run = judge_with(&["test", "cases/leetcode37/example1", "--submission", &path]);
    assert_eq!(run.code, 1, "{file}: {}", run.stdout);
    assert!(
        run.stdout
            .trim_end()
            .rsplit_once("\n\n")
            .is_some_and(|(_, last)| last.starts_with(&format!("{path} did not compile:\n"))),
        "{}",
        run.stdout
    );
    assert_eq!(run.stdout.matches(place).count(), 1, "{}", run.stdout);
    assert!(run.stdout.contains("\nCE "), "{}", run.stdout);
}

#[test]
fn c_gets_every_verdict() {
    judge_every_verdict(
        "C",
        &Fixtures {
            tools: &["gcc"],
            leetcode: "ac_leetcode.c",
            program: "ac_program.c",
            wrong: "wa_fills_ones.c",
            crash: (
                "re_assert.c",
                "assertion `solved && \"the board has blanks\"' failed at re_assert.c:4",
            ),
            compile_error: ("ce_undeclared.c", "ce_undeclared.c:4:5: error"),
        },
    );
}

#[test]
fn go_gets_every_verdict() {
    judge_every_verdict(
        "Go",
        &Fixtures {
            tools: &["go"],
            leetcode: "ac_leetcode.go",
            program: "ac_program.go",
            wrong: "wa_fills_ones.go",
            crash: (
                "re_index_out_of_range.go",
                "panic: runtime error: index out of range [9] with length 9 at \
                 re_index_out_of_range.go:4",
            ),
            compile_error: ("ce_undefined.go", "ce_undefined.go:4:11: undefined: size"),
        },
    );
}

#[test]
fn javascript_gets_every_verdict() {
    judge_every_verdict(
        "JavaScript",
        &Fixtures {
            tools: &["node"],
            leetcode: "ac_leetcode.js",
            program: "ac_program.js",
            wrong: "wa_fills_ones.js",
            crash: (
                "re_throws.js",
                "threw Error: no digit fits at re_throws.js:4:9",
            ),
            compile_error: ("ce_syntax.js", "ce_syntax.js:4"),
        },
    );
}

#[test]
fn typescript_gets_every_verdict() {
    judge_every_verdict(
        "TypeScript",
        &Fixtures {
            tools: &["tsc", "node"],
            leetcode: "ac_leetcode.ts",
            program: "ac_program.ts",
            wrong: "wa_fills_ones.ts",
            crash: (
                "re_throws.ts",
                "threw RangeError: no digit fits at re_throws.ts:8:9",
            ),
            compile_error: ("ce_type_error.ts", "ce_type_error.ts(4,3): error TS2322"),
        },
    );
}

#[test]
fn csharp_gets_every_verdict() {
    judge_every_verdict(
        "C#",
        &Fixtures {
            tools: &["mcs", "mono"],
            leetcode: "ac_leetcode.cs",
            program: "ac_program.cs",
            wrong: "wa_fills_ones.cs",
            crash: (
                "re_index_out_of_range.cs",
                "threw System.IndexOutOfRangeException: Index was outside the bounds of the \
                 array. at re_index_out_of_range.cs:5",
            ),
            compile_error: ("ce_undeclared.cs", "ce_undeclared.cs(5,29): error CS0103"),
        },
    );
}

#[test]
fn kotlin_gets_every_verdict() {
    judge_every_verdict(
        "Kotlin",
        &Fixtures {
            tools: &["kotlinc", "java"],
            leetcode: "ac_leetcode.kt",
            program: "ac_program.kt",
            wrong: "wa_fills_ones.kt",
            crash: (
                "re_exception.kt",
                "threw java.lang.IllegalStateException: no digit fits at re_exception.kt:5",
            ),
            compile_error: ("ce_unresolved.kt", "ce_unresolved.kt:5:27: error"),
        },
    );
}

#[test]
fn scala_gets_every_verdict() {
    judge_every_verdict(
        "Scala",
        &Fixtures {
            tools: &["scalac", "java"],
            leetcode: "ac_leetcode.scala",
            program: "ac_program.scala",
            wrong: "wa_fills_ones.scala",
            crash: (
                "re_exception.scala",
                "threw java.lang.ArrayIndexOutOfBoundsException: Index 9 out of bounds for \
                 length 9 at re_exception.scala:5",
            ),
            compile_error: ("ce_not_found.scala", "ce_not_found.scala:5: error"),
        },
    );
}

#[test]
fn ruby_gets_every_verdict() {
    judge_every_verdict(
        "Ruby",
        &Fixtures {
            tools: &["ruby"],
            leetcode: "ac_leetcode.rb",
            program: "ac_program.rb",
            wrong: "wa_fills_ones.rb",
            crash: (
                "re_no_method.rb",
                "raised NoMethodError: undefined method `each' for nil:NilClass at \
                 re_no_method.rb:4",
            ),
            compile_error: ("ce_syntax.rb", "ce_syntax.rb:5: syntax error"),
        },
    );
}

#[test]
fn php_gets_every_verdict() {
    judge_every_verdict(
        "PHP",
        &Fixtures {
            tools: &["php"],
            leetcode: "ac_leetcode.php",
            program: "ac_program.php",
            wrong: "wa_fills_ones.php",
            crash: (
                "re_exception.php",
                "fatal error: Uncaught RuntimeException: no digit fits at re_exception.php:5",
            ),
            compile_error: ("ce_syntax.php", "in ce_syntax.php on line 6"),
        },
    );
}

#[test]
fn racket_gets_every_verdict() {
    judge_every_verdict(
        "Racket",
        &Fixtures {
            tools: &["racket"],
            leetcode: "ac_leetcode.rkt",
            program: "ac_program.rkt",
            wrong: "wa_fills_ones.rkt",
            crash: (
                "re_contract.rkt",
                "raised solve-sudoku: contract violation at re_contract.rkt:4",
            ),
            compile_error: (
                "ce_unbound.rkt",
                "ce_unbound.rkt:4:11: size: unbound identifier",
            ),
        },
    );
}

#[test]
fn a_missing_toolchain_names_its_debian_package() {
    let empty = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args([
            "test",
            "cases/leetcode37/example1",
            "--submission",
            "tests/fixtures/submissions/ac_leetcode.go",
        ])
        .current_dir(super::manifest_dir())
        .env("PATH", empty.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("`go` is not installed or not on PATH")
            && stderr.contains("apt install golang-go"),
        "{stderr}"
    );
}

#[test]
fn a_language_not_judged_says_why_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let swift = super::write(dir.path(), "main.swift", "print(readLine()!)\n");
    let run = judge_with(&["test", "cases", "--submission", swift.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("is Swift, which sudoku-judge does not judge")
            && run
                .stderr
                .contains("A LeetCode-style class Solution cannot be judged")
            && run.stderr.contains("`swiftc -O main.swift -o main`")
            && run
                .stderr
                .contains("`sudoku-judge test acwing166 --cmd ./main`"),
        "{}",
        run.stderr
    );
}

/// LeetCode's C# files have no `using System;` and begin `public class
/// Solution`, as Java's may: one that does not compile is not taken for
/// Java, and a tuple deconstruction in it, which mcs compiles, is not
/// blamed for the error.
#[test]
fn a_csharp_file_that_fails_is_told_what_the_compiler_said_and_nothing_else() {
    if !have(&["mcs", "mono"], "C# compile errors") {
        return;
    }
    let path = "tests/fixtures/submissions/ce_missing_semicolon.cs";
    let run = judge_with(&["test", "cases/leetcode37/example1", "--submission", path]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("\nCE "), "{}", run.stdout);
    assert!(
        run.stdout.contains("ce_missing_semicolon.cs(17,"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("looks like"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("note: this file needs"),
        "{}",
        run.stdout
    );

    // Java saved as `.cs` (with C#'s name for the method, or it would not
    // reach the compiler) is told so.
    let dir = tempfile::tempdir().unwrap();
    let java = "class Solution {\n    public void SolveSudoku(char[][] board) {\n        \
                boolean[] seen = new boolean[10];\n        int n = board.length;\n    }\n}\n";
    let saved = super::write(dir.path(), "Solution.cs", java);
    let run = judge_with(&[
        "test",
        "cases/leetcode37/example1",
        "--submission",
        saved.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(&format!(
            "hint: {} looks like Java, not C#; if it is, judge it with --lang java",
            saved.display()
        )),
        "{}",
        run.stdout
    );
}

/// A LeetCode C++ file that fails is told what g++ said, and nothing the
/// judge would have to guess: no C++23 feature it does not use, no other
/// language for C#'s words (`string`, `bool`) in it.
#[test]
fn a_cpp_file_that_fails_is_told_what_the_compiler_said_and_nothing_else() {
    if !have(&["g++"], "C++ compile errors") {
        return;
    }
    for (fixture, said) in [
        ("ce_missing_semicolon.cpp", "ce_missing_semicolon.cpp:21:"),
        ("ce_string_from_int.cpp", "ce_string_from_int.cpp:36:"),
    ] {
        let path = format!("tests/fixtures/submissions/{fixture}");
        let run = judge_with(&["test", "cases/leetcode37/example1", "--submission", &path]);
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("\nCE "), "{}", run.stdout);
        assert!(run.stdout.contains(said), "{fixture}: {}", run.stdout);
        for wrong in [
            "needs C++23",
            "std::print",
            "looks like",
            "note: this file needs",
        ] {
            assert!(!run.stdout.contains(wrong), "{fixture}: {}", run.stdout);
        }
    }
}

/// mcs compiles `var (a, b) = ...`: a file that deconstructs tuples is
/// judged, not turned away for a feature the compiler has.
#[test]
fn a_csharp_tuple_deconstruction_is_accepted() {
    if !have(&["mcs", "mono"], "C# tuple deconstruction") {
        return;
    }
    let (run, report) = judge_fixture("ac_leetcode_deconstructs.cs", "cases/leetcode37", &[]);
    assert_eq!(only_verdict(&report).0, "AC", "{}", run.stdout);
}
