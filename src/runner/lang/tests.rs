use super::plan::{command, fill};
use std::path::Path;

use super::cause::{crash_cause, out_of_memory};
use super::known::NOT_JUDGED;
use super::language::Interface;
use super::language::*;
use super::{java, table};

fn lang(id: &str) -> Language {
    Language::find(id).unwrap_or_else(|| panic!("no language {id}"))
}

#[test]
fn the_language_comes_from_the_extension() {
    for (file, language) in [
        ("a.cpp", "cpp"),
        ("a.cc", "cpp"),
        ("a.cxx", "cpp"),
        ("a.rs", "rust"),
        ("a.py", "python"),
        ("Main.java", "java"),
    ] {
        assert_eq!(
            Language::from_path(Path::new(file)),
            Some(lang(language)),
            "{file}"
        );
    }
    assert_eq!(Language::from_path(Path::new("a.txt")), None);
}

#[test]
fn every_language_is_declared_whole() {
    let mut names = Vec::new();
    for language in Language::all() {
        let spec = language.spec();
        for name in std::iter::once(spec.id).chain(spec.aliases.iter().copied()) {
            assert!(!names.contains(&name), "{name} names two languages");
            names.push(name);
        }
        assert!(!spec.extensions.is_empty(), "{}", spec.id);
        assert!(!spec.tools.is_empty(), "{}", spec.id);
        for pattern in [spec.detect.program, spec.detect.function] {
            regex(pattern);
        }
        for cause in spec.causes {
            regex(cause.pattern);
        }
        if let Some(frame) = &spec.frame {
            regex(frame.pattern);
        }
        // The template LeetCode shows is a LeetCode-style file.
        assert_eq!(
            interface_of(*language, spec.leetcode.template),
            Some(Interface::Function),
            "{}",
            spec.id
        );
        // The self-test is a program.
        assert_eq!(
            interface_of(*language, spec.self_test),
            Some(Interface::Program),
            "{}",
            spec.id
        );
    }
    for (name, extensions, _) in NOT_JUDGED {
        for extension in extensions {
            assert_eq!(
                Language::from_path(Path::new(&format!("a.{extension}"))),
                None,
                "{name}"
            );
        }
    }
}

#[test]
fn programs_have_a_main_and_leetcode_files_the_method() {
    use Interface::{Function, Program};
    let cases = [
        ("cpp", "int main() { return 0; }", Some(Program)),
        (
            "cpp",
            "class Solution { public: void solveSudoku(vector<vector<char>>& b) {} };",
            Some(Function),
        ),
        ("cpp", "int x;", None),
        (
            "cpp",
            "// no main() here\n/* int main() */ class Solution { void solveSudoku(vector<vector<char>>& b); };",
            Some(Function),
        ),
        ("rust", "fn main() {}", Some(Program)),
        (
            "rust",
            "impl Solution { pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {} }",
            Some(Function),
        ),
        (
            "python",
            "class Solution:\n    def solveSudoku(self, board):\n        pass\n",
            Some(Function),
        ),
        ("python", "print(input())\n", Some(Program)),
        (
            "java",
            "public class Main { public static void main(String[] a) {} }",
            Some(Program),
        ),
        (
            "java",
            "class Solution { public void solveSudoku(char[][] board) {} }",
            Some(Function),
        ),
    ];
    for (language, source, expected) in cases {
        assert_eq!(interface_of(lang(language), source), expected, "{source}");
    }
}

#[test]
fn the_java_entry_point_is_the_public_class() {
    assert_eq!(
        java::main_class("class Helper {}\npublic class Main { }", "x.java").as_deref(),
        Some("Main")
    );
    assert_eq!(
        java::main_class("class Only {}", "x.java").as_deref(),
        Some("Only")
    );
}

#[test]
fn placeholders_are_filled_once() {
    assert_eq!(
        fill(
            "a @NAME@ b @SOURCE@ @X@",
            &[("@NAME@", "n"), ("@SOURCE@", "@NAME@")]
        ),
        "a n b @NAME@ @X@"
    );
    assert_eq!(
        command(
            &["cc", "@FLAGS@", "-o", "@NAME@"],
            &["-O2", "-g"],
            &[("@NAME@", "m")]
        ),
        ["cc", "-O2", "-g", "-o", "m"]
    );
}

#[test]
fn allocation_failures_are_recognised_in_every_language() {
    for stderr in [
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc",
        "Traceback (most recent call last):\nMemoryError",
        "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
        "memory allocation of 1073741824 bytes failed",
    ] {
        assert!(out_of_memory(stderr, None).is_some(), "{stderr}");
    }
    assert_eq!(out_of_memory("Segmentation fault", None), None);
}

#[test]
fn a_crash_is_explained_by_what_the_runtime_said_and_where() {
    let source = |name: &str, built_as: &str| SourceName {
        name: name.into(),
        built_as: built_as.into(),
    };
    for (stderr, language, file, cause) in [
        (
            "\nthread 'main' (12) panicked at sol.rs:6:14:\nindex out of bounds: the len is 9 but the index is 9\nnote: run with `RUST_BACKTRACE=1`",
            "rust",
            source("sol.rs", "sol.rs"),
            "panicked at sol.rs:6:14: index out of bounds: the len is 9 but the index is 9",
        ),
        (
            "Exception in thread \"main\" java.lang.IllegalStateException: oops\n\tat Solution.solveSudoku(Solution.java:5)\n\tat SudokuJudgeDriver.main(SudokuJudgeDriver.java:27)",
            "java",
            source("mine.java", "Solution.java"),
            "threw java.lang.IllegalStateException: oops at mine.java:5",
        ),
        (
            "terminate called after throwing an instance of 'std::runtime_error'\n  what():  oops",
            "cpp",
            source("sol.cpp", "sol.cpp"),
            "terminate called after throwing an instance of 'std::runtime_error': oops",
        ),
        (
            "Traceback (most recent call last):\n  File \"/x/driver.py\", line 9, in <module>\n  File \"sol.py\", line 3, in solveSudoku\n  File \"sol.py\", line 7, in helper\nKeyError: 5\n",
            "python",
            source("sol.py", "sol.py"),
            "raised KeyError: 5 at sol.py:7",
        ),
    ] {
        assert_eq!(
            crash_cause(stderr, Some(lang(language)), Some(&file)).as_deref(),
            Some(cause),
            "{stderr}"
        );
        // A command's runtime is not known: every language's words are read.
        assert!(crash_cause(stderr, None, None).is_some(), "{stderr}");
    }
    assert_eq!(crash_cause("just some output", None, None), None);
}

/// A file that does not compile is looked at for another language's marks:
/// each language's must be a regex, and a language's own self-test bears
/// its marks, where it has any.
#[test]
fn every_languages_marks_are_a_regex_its_own_files_match() {
    for language in Language::all() {
        let spec = language.spec();
        if spec.marks.is_empty() {
            continue;
        }
        let marks = regex::Regex::new(spec.marks)
            .unwrap_or_else(|e| panic!("{}'s marks are no regex: {e}", spec.id));
        assert!(
            marks.is_match(spec.leetcode.template) || marks.is_match(spec.self_test),
            "{}'s marks match neither its template nor its self-test",
            spec.id
        );
    }
}

#[test]
fn the_book_lists_every_language_as_declared() {
    let page = include_str!("../../../docs/languages.md");
    let table = markdown_in(page);
    let made = table::markdown();
    if table != made.trim() {
        // The whole table, to paste between the markers.
        let out = std::env::temp_dir().join("sudoku-judge-languages.md");
        std::fs::write(&out, &made).unwrap();
        panic!(
            "the table of languages in docs/languages.md is not the one the declarations \
             make; the table to paste between its markers is in {}",
            out.display()
        );
    }
}

/// The page's table between its markers.
fn markdown_in(page: &str) -> &str {
    let start = page
        .find(table::BEGIN)
        .expect("docs/languages.md marks where its table of languages begins")
        + table::BEGIN.len();
    let end = page[start..]
        .find(table::END)
        .expect("docs/languages.md marks where its table of languages ends");
    page[start..start + end].trim()
}
