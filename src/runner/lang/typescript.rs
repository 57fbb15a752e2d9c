//! TypeScript, compiled by `tsc` and run on Node.js: LeetCode's `function
//! solveSudoku(board: string[][]): void`, and programs reading stdin.

use std::path::PathBuf;

use super::javascript;
use super::language::{
    Build, Comments, Detect, LeetCode, Run, Spec, StarterFiles, Tool, Toolchain,
};
use crate::runner::sandbox::Containment;

/// Node's globals, which a program reading stdin needs and which the
/// compiler does not know without Node's type declarations; and lodash's
/// `_`, which LeetCode gives.
const GLOBALS: &str = "declare var require: any;\ndeclare var process: any;\ndeclare var module: any;\ndeclare var exports: any;\ndeclare var _: any;\n";

/// `tsc` as installed by npm: the sandbox sees its whole package
/// (`bin/tsc` loads `../lib/tsc.js`), wherever it is installed.
fn resolve(tools: Vec<PathBuf>, containment: &Containment) -> Toolchain {
    let programs: Vec<PathBuf> = tools
        .into_iter()
        .map(|tool| std::fs::canonicalize(&tool).unwrap_or(tool))
        .collect();
    let package = programs[0]
        .parent()
        .and_then(|bin| bin.parent())
        .filter(|package| package.join("package.json").is_file())
        .map(|package| package.to_path_buf());
    super::tools::toolchain(
        programs,
        package.into_iter().collect(),
        Vec::new(),
        containment,
    )
}

/// With a source map, so a crash names the line of the `.ts` file.
const COMPILE: &[&str] = &[
    "@TOOL0@",
    "@FLAGS@",
    "--sourceMap",
    "--outDir",
    ".",
    "solution.ts",
    "sudoku-judge-globals.d.ts",
];

pub(crate) static SPEC: Spec = Spec {
    id: "typescript",
    aliases: &["ts"],
    name: "TypeScript",
    extensions: &["ts"],
    tools: &[
        Tool::new("tsc", "node-typescript", &["--version"]),
        Tool::new("node", "nodejs", &["--version"]),
    ],
    tested: "tsc 4.8 (Debian) and 5 (npm, in CI), Node.js 20",
    resolve,
    flags: &[
        "--alwaysStrict",
        "--strictBindCallApply",
        "--strictFunctionTypes",
        "--target",
        "ES2022",
    ],
    flags_why: "LeetCode's compile options; then `node --enable-source-maps`, so a crash names the line of the `.ts` file",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: javascript::READS_STDIN,
        function: r"\bfunction\s+solveSudoku\b|\bsolveSudoku\s*=",
        script: true,
    },
    program: Build {
        files: &[
            ("solution.ts", "@SOURCE@"),
            ("sudoku-judge-globals.d.ts", GLOBALS),
        ],
        source_as: "solution.ts",
        compile: COMPILE,
        shown: true,
        run: Run::Exec(&["@TOOL1@", "--enable-source-maps", "@DIR@/solution.js"]),
    },
    function: Build {
        files: &[
            ("solution.ts", "@SOURCE@"),
            ("sudoku-judge-globals.d.ts", GLOBALS),
            ("driver.js", "@DRIVER@"),
        ],
        source_as: "solution.ts",
        compile: COMPILE,
        shown: true,
        run: Run::Exec(&[
            "@TOOL1@",
            "--enable-source-maps",
            "@DIR@/driver.js",
            "@DIR@/solution.js",
            "@NAME@",
        ]),
    },
    entry: None,
    prepare: None,
    compile_env: &[],
    leetcode: LeetCode {
        method: "solveSudoku",
        template: "/**\n Do not return anything, modify board in-place instead.\n */\nfunction solveSudoku(board: string[][]): void {\n\n};",
        gets: "as JavaScript (lodash as `_` where installed); a type error is CE, as on LeetCode",
        version: Some("TypeScript 5.1"),
    },
    marks: "",
    self_test: "const line: string = require('fs').readFileSync(0, 'utf8').split('\\n')[0];\nconsole.log(line);\n",
    starter: StarterFiles {
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
    // Run on Node.js as JavaScript is, with its driver: its memory counted
    // and its crashes read as JavaScript's.
    ..javascript::SPEC
};
