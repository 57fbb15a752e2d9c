//! Ruby: LeetCode's `def solve_sudoku(board)`, and scripts.

use super::language::Tool;
use super::language::{Build, Cause, Comments, Detect, Frame, LeetCode, Run, Spec, StarterFiles};
use crate::reason::Stdout;

pub(crate) static SPEC: Spec = Spec {
    id: "ruby",
    aliases: &["rb"],
    name: "Ruby",
    extensions: &["rb"],
    tools: &[Tool::new("ruby", "ruby", &["--version"])],
    tested: "Ruby 3.1",
    resolve: super::tools::resolve_links,
    flags: &[],
    flags_why: "a syntax error is CE (`ruby -c`)",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::Hash,
        program: r"\b(?:STDIN|\$stdin|ARGF|gets|readlines)\b",
        function: r"\bdef\s+solve_sudoku\b",
        script: true,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "-c", "@NAME@"],
        shown: false,
        run: Run::Exec(&["@TOOL0@", "@DIR@/@NAME@"]),
    },
    function: Build {
        files: &[("@NAME@", "@SOURCE@"), ("driver.rb", "@DRIVER@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "-c", "@NAME@"],
        shown: false,
        run: Run::Exec(&["@TOOL0@", "@DIR@/driver.rb", "@DIR@/@NAME@"]),
    },
    entry: None,
    prepare: None,
    driver: include_str!("../drivers/driver.rb"),
    compile_env: &[],
    native: false,
    runtime_kb: 0,
    causes: &[Cause {
        pattern: r"(?m)^[^\s:]+:\d+:in [`'][^']*': (?P<message>.*) \((?P<class>[\w:]+)\)$",
        says: "raised $class: $message",
    }],
    frame: Some(Frame {
        pattern: r"(?m)^\s*(?:from )?(?P<file>[^\s:]+):(?P<line>\d+):in ",
        innermost_last: false,
    }),
    out_of_memory: &["failed to allocate memory (NoMemoryError)"],
    leetcode: LeetCode {
        method: "solve_sudoku",
        template: "# @param {Character[][]} board\n# @return {Void} Do not return anything, modify board in-place instead.\ndef solve_sudoku(board)\n    \nend",
        gets: "`require 'set'`; the board as arrays of one-character strings",
        version: Some("Ruby 3.2"),
    },
    marks: "",
    // $stdout into a pipe is buffered ($stdout.sync is false).
    stdout: Stdout::Buffered {
        flush: "$stdout.flush, or $stdout.sync = true at the start",
    },
    self_test: "puts gets\n",
    starter: StarterFiles {
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
};
