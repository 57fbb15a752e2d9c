//! PHP: LeetCode's `class Solution` with `function solveSudoku(&$board)`,
//! and scripts.

use super::language::{Build, Cause, Comments, Detect, Frame, Interface, LeetCode, Run, Spec};
use super::language::{StarterFiles, Tool};
use crate::reason::Stdout;

/// LeetCode's PHP has no opening tag: it gets one on its first line, so
/// its line numbers stay.
fn prepare(source: &str, _name: &str, _interface: Interface) -> String {
    if source.trim_start().starts_with("<?php") {
        source.to_string()
    } else {
        format!("<?php {source}")
    }
}

/// Errors go to stderr, never into the answers; the judge's memory limit
/// is the only one.
const RUN_OPTIONS: [&str; 6] = [
    "-d",
    "display_errors=stderr",
    "-d",
    "log_errors=0",
    "-d",
    "memory_limit=-1",
];

pub(crate) static SPEC: Spec = Spec {
    id: "php",
    aliases: &[],
    name: "PHP",
    extensions: &["php"],
    tools: &[Tool::new("php", "php-cli", &["--version"])],
    tested: "PHP 8.2",
    resolve: super::tools::resolve_links,
    flags: &RUN_OPTIONS,
    flags_why: "errors on stderr and no memory limit of PHP's own; a syntax error is CE (`php -l`)",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLikeAndHash,
        program: r"\bSTDIN\b|php://stdin|\bfgets\s*\(|\bfscanf\s*\(|\bstream_get_contents\s*\(|\breadline\s*\(",
        function: r"\bfunction\s+solveSudoku\b",
        script: true,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "-l", "@NAME@"],
        shown: false,
        run: Run::Exec(&["@TOOL0@", "@FLAGS@", "@DIR@/@NAME@"]),
    },
    function: Build {
        files: &[("@NAME@", "@SOURCE@"), ("driver.php", "@DRIVER@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "-l", "@NAME@"],
        shown: false,
        run: Run::Exec(&["@TOOL0@", "@FLAGS@", "@DIR@/driver.php", "@DIR@/@NAME@"]),
    },
    entry: None,
    prepare: Some(prepare),
    driver: include_str!("../drivers/driver.php"),
    compile_env: &[],
    native: false,
    runtime_kb: 0,
    causes: &[Cause {
        pattern: r"(?m)^(?:PHP )?Fatal error:\s+(?P<what>.*?)(?: in (?P<file>\S+):(?P<line>\d+))?$",
        says: "fatal error: $what",
    }],
    frame: Some(Frame {
        pattern: r"(?m)(?: in |^#\d+ )(?P<file>[^\s:()]+)[:(](?P<line>\d+)",
        innermost_last: false,
    }),
    out_of_memory: &["Allowed memory size of"],
    leetcode: LeetCode {
        method: "solveSudoku",
        template: "class Solution {\n\n    /**\n     * @param String[][] $board\n     * @return NULL\n     */\n    function solveSudoku(&$board) {\n        \n    }\n}",
        gets: "`<?php` when it has none; the board as arrays of one-character strings; a fresh `Solution` per board",
        version: None,
    },
    marks: "",
    // the CLI writes every echo at once (no output_buffering, implicit_flush on).
    stdout: Stdout::Lines {
        own_buffer: "an output buffer (ob_start)",
    },
    self_test: "<?php\necho fgets(STDIN);\n",
    starter: StarterFiles {
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
};
