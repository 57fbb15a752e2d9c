//! JavaScript on Node.js: LeetCode's `var solveSudoku = function(board)`,
//! and programs reading stdin.

use super::language::Tool;
use super::language::{Build, Cause, Comments, Detect, Frame, LeetCode, Run, Spec, StarterFiles};
use crate::reason::Stdout;

/// What a script does to read stdin: then it is a program.
pub(super) const READS_STDIN: &str = r#"\bprocess\.stdin\b|readFileSync\(\s*(?:0|['"]/dev/stdin['"])|require\(\s*['"](?:node:)?readline['"]\s*\)"#;

pub(crate) static SPEC: Spec = Spec {
    id: "javascript",
    aliases: &["js", "node"],
    name: "JavaScript",
    extensions: &["js", "cjs"],
    tools: &[Tool::new("node", "nodejs", &["--version"])],
    tested: "Node.js 20",
    resolve: super::tools::resolve_links,
    flags: &["--harmony"],
    flags_why: "as LeetCode runs it; a syntax error is CE (`node --check`)",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: READS_STDIN,
        function: r"\bfunction\s+solveSudoku\b|\bsolveSudoku\s*=",
        script: true,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "--check", "@NAME@"],
        shown: false,
        run: Run::Exec(&["@TOOL0@", "@FLAGS@", "@DIR@/@NAME@"]),
    },
    function: Build {
        files: &[("@NAME@", "@SOURCE@"), ("driver.js", "@DRIVER@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "--check", "@NAME@"],
        shown: false,
        run: Run::Exec(&[
            "@TOOL0@",
            "@FLAGS@",
            "@DIR@/driver.js",
            "@DIR@/@NAME@",
            "@NAME@",
        ]),
    },
    entry: None,
    prepare: None,
    driver: include_str!("../drivers/driver.js"),
    compile_env: &[],
    native: false,
    runtime_kb: 48 << 10,
    // An uncaught exception as Node reports it (the error's line, then its
    // stack), and a V8 stack frame: `at solveSudoku (/path/sol.js:3:11)`.
    causes: &[
        Cause {
            pattern: r"(?m)^(?P<what>[\w.$]*(?:Error|Exception)\b.*)\n\s+at ",
            says: "threw $what",
        },
        Cause {
            pattern: r"(?m)^Uncaught (?P<what>.*)$",
            says: "threw $what",
        },
    ],
    frame: Some(Frame {
        pattern: r"(?m)^\s+at (?:.*?\()?(?P<file>[^\s():]+):(?P<line>\d+):(?P<column>\d+)\)?\s*$",
        innermost_last: false,
    }),
    out_of_memory: &["JavaScript heap out of memory", "Reached heap limit"],
    leetcode: LeetCode {
        method: "solveSudoku",
        template: "/**\n * @param {character[][]} board\n * @return {void} Do not return anything, modify board in-place instead.\n */\nvar solveSudoku = function(board) {\n    \n};",
        gets: "lodash as `_` where installed; the board as arrays of one-character strings; what the file keeps at its top level carries over from board to board, as on LeetCode",
        version: None,
    },
    marks: r"\bvar\s+solveSudoku\s*=\s*function\b|\bconsole\.log\s*\(|\brequire\s*\(",
    // Node writes to a pipe at once, synchronously, on Linux and macOS.
    stdout: Stdout::Lines {
        own_buffer: "answers joined and printed at the end",
    },
    self_test: "const line = require('fs').readFileSync(0, 'utf8').split('\\n')[0];\nconsole.log(line);\n",
    starter: StarterFiles {
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
};
