//! The files `sudoku-judge new` writes to start from, one table row per
//! language: for LeetCode 37, LeetCode's own template (from the language's
//! declaration, so the two cannot differ); for AcWing 166 and POJ 3074, a
//! program that reads puzzle lines until `end` and prints one line per
//! puzzle. Each leaves the solving to the user and is still a program that
//! builds and runs: the program prints each puzzle as it read it, so the
//! judge's first word on it is a wrong answer, never a compile error.
//!
//! The C++ program stays within C++98, which POJ 3074 builds with.

use super::launch::Interface;
use super::Language;

/// What `new` writes for one language.
struct Row {
    /// The language's id, as `--lang` takes it.
    language: &'static str,
    /// The file name a LeetCode-style file gets by default.
    leetcode_file: &'static str,
    /// The file name a program gets by default: the name its public class
    /// needs, where it has one.
    program_file: &'static str,
    /// What is written instead of LeetCode's template, when the template
    /// as LeetCode shows it does not build or run here, and why.
    leetcode_instead: Option<(&'static str, &'static str)>,
    /// The program skeleton.
    program: &'static str,
}

/// Every judged language's starting files.
static TABLE: [Row; 14] = [
    Row {
        language: "cpp",
        leetcode_file: "solution.cpp",
        program_file: "main.cpp",
        leetcode_instead: None,
        program: r#"#include <iostream>
#include <string>
using namespace std;

// Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
// As written it returns the puzzle unchanged, which is a wrong answer.
string solve(string puzzle) {
    return puzzle;
}

int main() {
    ios::sync_with_stdio(false);
    string line;
    while (cin >> line && line != "end") {
        cout << solve(line) << '\n';
    }
    return 0;
}
"#,
    },
    Row {
        language: "c",
        leetcode_file: "solution.c",
        program_file: "main.c",
        leetcode_instead: None,
        program: r#"#include <stdio.h>
#include <string.h>

/* Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
   As written it leaves the puzzle unchanged, which is a wrong answer. */
static void solve(char *puzzle) {
    (void)puzzle;
}

int main(void) {
    char line[128];
    while (scanf("%127s", line) == 1 && strcmp(line, "end") != 0) {
        solve(line);
        puts(line);
    }
    return 0;
}
"#,
    },
    Row {
        language: "rust",
        leetcode_file: "solution.rs",
        program_file: "main.rs",
        leetcode_instead: None,
        program: r#"use std::io::{self, BufRead, Write};

/// Fills the empty cells ('.') of one puzzle: 81 bytes, row by row.
/// As written it leaves the puzzle unchanged, which is a wrong answer.
fn solve(puzzle: &mut [u8]) {
    let _ = puzzle;
}

fn main() {
    let mut out = io::BufWriter::new(io::stdout().lock());
    for line in io::stdin().lock().lines() {
        let line = line.expect("stdin is readable");
        let line = line.trim();
        if line == "end" {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let mut puzzle = line.as_bytes().to_vec();
        solve(&mut puzzle);
        out.write_all(&puzzle).expect("stdout is writable");
        out.write_all(b"\n").expect("stdout is writable");
    }
}
"#,
    },
    Row {
        language: "python",
        leetcode_file: "solution.py",
        program_file: "main.py",
        leetcode_instead: None,
        program: r#"import sys


def solve(puzzle: str) -> str:
    """Fills the empty cells ('.') of one puzzle: 81 characters, row by row.

    As written it returns the puzzle unchanged, which is a wrong answer.
    """
    return puzzle


def main() -> None:
    for line in sys.stdin:
        line = line.strip()
        if line == "end":
            break
        if line:
            sys.stdout.write(solve(line) + "\n")


if __name__ == "__main__":
    main()
"#,
    },
    Row {
        language: "java",
        leetcode_file: "Solution.java",
        program_file: "Main.java",
        leetcode_instead: None,
        program: r#"import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    // Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
    // As written it returns the puzzle unchanged, which is a wrong answer.
    static String solve(String puzzle) {
        return puzzle;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.equals("end")) {
                break;
            }
            if (line.length() > 0) {
                out.append(solve(line)).append('\n');
            }
        }
        System.out.print(out);
    }
}
"#,
    },
    Row {
        language: "go",
        leetcode_file: "solution.go",
        program_file: "main.go",
        leetcode_instead: None,
        program: r#"package main

import (
	"bufio"
	"os"
	"strings"
)

// solve fills the empty cells ('.') of one puzzle: 81 bytes, row by row.
// As written it leaves the puzzle unchanged, which is a wrong answer.
func solve(puzzle []byte) {
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "end" {
			break
		}
		if line == "" {
			continue
		}
		puzzle := []byte(line)
		solve(puzzle)
		out.Write(puzzle)
		out.WriteByte('\n')
	}
}
"#,
    },
    Row {
        language: "javascript",
        leetcode_file: "solution.js",
        program_file: "main.js",
        leetcode_instead: None,
        program: r#"// Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
// As written it returns the puzzle unchanged, which is a wrong answer.
function solve(puzzle) {
    return puzzle;
}

const out = [];
for (const raw of require('fs').readFileSync(0, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === 'end') {
        break;
    }
    if (line !== '') {
        out.push(solve(line) + '\n');
    }
}
process.stdout.write(out.join(''));
"#,
    },
    Row {
        language: "typescript",
        leetcode_file: "solution.ts",
        program_file: "main.ts",
        leetcode_instead: None,
        program: r#"// Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
// As written it returns the puzzle unchanged, which is a wrong answer.
function solve(puzzle: string): string {
    return puzzle;
}

const out: string[] = [];
for (const raw of require('fs').readFileSync(0, 'utf8').split('\n')) {
    const line: string = raw.trim();
    if (line === 'end') {
        break;
    }
    if (line !== '') {
        out.push(solve(line) + '\n');
    }
}
process.stdout.write(out.join(''));
"#,
    },
    Row {
        language: "csharp",
        leetcode_file: "Solution.cs",
        program_file: "Program.cs",
        leetcode_instead: None,
        program: r#"using System;
using System.Text;

public class Program {
    // Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
    // As written it returns the puzzle unchanged, which is a wrong answer.
    static string Solve(string puzzle) {
        return puzzle;
    }

    public static void Main() {
        var output = new StringBuilder();
        string line;
        while ((line = Console.ReadLine()) != null) {
            line = line.Trim();
            if (line == "end") {
                break;
            }
            if (line.Length > 0) {
                output.Append(Solve(line)).Append('\n');
            }
        }
        Console.Write(output);
    }
}
"#,
    },
    Row {
        language: "kotlin",
        leetcode_file: "Solution.kt",
        program_file: "Main.kt",
        leetcode_instead: None,
        program: r#"// Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
// As written it returns the puzzle unchanged, which is a wrong answer.
fun solve(puzzle: String): String {
    return puzzle
}

fun main() {
    val out = StringBuilder()
    while (true) {
        val line = readLine()?.trim() ?: break
        if (line == "end") {
            break
        }
        if (line.isNotEmpty()) {
            out.append(solve(line)).append('\n')
        }
    }
    print(out)
}
"#,
    },
    Row {
        language: "scala",
        leetcode_file: "Solution.scala",
        program_file: "Main.scala",
        leetcode_instead: None,
        program: r#"object Main {
  // Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
  // As written it returns the puzzle unchanged, which is a wrong answer.
  def solve(puzzle: String): String = puzzle

  def main(args: Array[String]): Unit = {
    val out = new StringBuilder
    var line = scala.io.StdIn.readLine()
    while (line != null && line.trim != "end") {
      if (line.trim.nonEmpty) {
        out.append(solve(line.trim)).append('\n')
      }
      line = scala.io.StdIn.readLine()
    }
    print(out)
  }
}
"#,
    },
    Row {
        language: "ruby",
        leetcode_file: "solution.rb",
        program_file: "main.rb",
        leetcode_instead: None,
        program: r#"# Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
# As written it returns the puzzle unchanged, which is a wrong answer.
def solve(puzzle)
  puzzle
end

STDIN.each_line do |line|
  line = line.strip
  break if line == "end"
  puts solve(line) unless line.empty?
end
"#,
    },
    Row {
        language: "php",
        leetcode_file: "solution.php",
        program_file: "main.php",
        leetcode_instead: None,
        program: r#"<?php
// Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
// As written it returns the puzzle unchanged, which is a wrong answer.
function solve(string $puzzle): string {
    return $puzzle;
}

$out = '';
while (($line = fgets(STDIN)) !== false) {
    $line = trim($line);
    if ($line === 'end') {
        break;
    }
    if ($line !== '') {
        $out .= solve($line) . "\n";
    }
}
echo $out;
"#,
    },
    Row {
        language: "racket",
        leetcode_file: "solution.rkt",
        program_file: "main.rkt",
        leetcode_instead: Some((
            r#"; LeetCode's template, with a body and the contract the board needs here:
; the board is a mutable vector of vectors of chars, changed in place
; (LeetCode's (listof (listof char?)) cannot be changed).
(define/contract (solve-sudoku board)
  (-> (vectorof (vectorof char?)) void?)
  (void))
"#,
            "LeetCode's Racket template has an empty body, which does not compile, and a \
             contract on lists, which a board changed in place is not",
        )),
        // `racket/base`: all of `racket` takes most of a second to load,
        // charged to every case.
        program: r#"#lang racket/base
(require racket/string)

;; Fills the empty cells (.) of one puzzle: 81 characters, row by row.
;; As written it returns the puzzle unchanged, which is a wrong answer.
(define (solve puzzle)
  puzzle)

(let loop ([line (read-line)])
  (unless (eof-object? line)
    (let ([puzzle (string-trim line)])
      (unless (equal? puzzle "end")
        (unless (string=? puzzle "")
          (displayln (solve puzzle)))
        (loop (read-line))))))
"#,
    },
];

/// A file to start from.
pub struct Starter {
    /// The name it gets when the user gives none.
    pub file_name: &'static str,
    pub text: String,
    /// Why it is not LeetCode's template exactly, when it is not.
    pub changed: Option<&'static str>,
}

fn row(language: Language) -> &'static Row {
    let id = language.spec().id;
    TABLE
        .iter()
        .find(|row| row.language == id)
        .expect("every language has a row in the starters' table")
}

/// The file to start from in `language`: LeetCode's template for a
/// LeetCode-style file, the skeleton for a program.
pub fn starter(language: Language, interface: Interface) -> Starter {
    let row = row(language);
    match interface {
        Interface::Function => {
            let (text, changed) = match row.leetcode_instead {
                Some((text, why)) => (text.to_string(), Some(why)),
                None => (format!("{}\n", language.spec().leetcode.template), None),
            };
            Starter {
                file_name: row.leetcode_file,
                text,
                changed,
            }
        }
        Interface::Program => Starter {
            file_name: row.program_file,
            text: row.program.to_string(),
            changed: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::lang::interface_of;

    #[test]
    fn every_language_has_one_row() {
        for language in Language::all() {
            let id = language.spec().id;
            assert_eq!(TABLE.iter().filter(|r| r.language == id).count(), 1, "{id}");
        }
        assert_eq!(TABLE.len(), Language::all().len());
    }

    #[test]
    fn each_starter_reads_as_the_kind_of_file_it_is() {
        for &language in Language::all() {
            for interface in [Interface::Function, Interface::Program] {
                let starter = starter(language, interface);
                assert_eq!(
                    interface_of(language, &starter.text),
                    Some(interface),
                    "{language:?} {interface:?}:\n{}",
                    starter.text
                );
                assert_eq!(
                    Language::from_path(std::path::Path::new(starter.file_name)),
                    Some(language),
                    "{}",
                    starter.file_name
                );
            }
        }
    }

    #[test]
    fn a_leetcode_file_is_leetcodes_template_unless_it_says_why_not() {
        for &language in Language::all() {
            let starter = starter(language, Interface::Function);
            let template = language.spec().leetcode.template;
            assert_eq!(
                starter.text == format!("{template}\n"),
                starter.changed.is_none(),
                "{language:?}"
            );
        }
    }
}
