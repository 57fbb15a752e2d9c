//! Python 3: LeetCode's `class Solution` with `solveSudoku(self, board:
//! List[List[str]])`, and scripts.

use std::path::{Path, PathBuf};

use super::language::{Build, Cause, Comments, Detect, Frame, LeetCode, Run, Spec, StarterFiles};
use super::language::{Tool, Toolchain};
use crate::reason::Stdout;
use crate::runner::sandbox::Containment;

/// pyenv's `python3` is a shim: run the interpreter it picks, and show the
/// sandbox its installation. The interpreter is asked in the sandbox (see
/// `tools::ask`), seeing its installation (conda's `~/miniconda3`) as a
/// run does, and not the project's pin: the shim is told the version
/// pinned (`PYENV_VERSION`, else the nearest `.python-version`), as pyenv
/// would read it.
fn resolve(tools: Vec<PathBuf>, containment: &Containment) -> Toolchain {
    let pinned = std::env::var("PYENV_VERSION").ok().or_else(|| {
        let pin = super::tools::nearest_pin(".python-version")?;
        let text = std::fs::read_to_string(pin).ok()?;
        let versions: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        (!versions.is_empty()).then(|| versions.join(":"))
    });
    let env: Vec<(&str, &str)> = pinned
        .as_deref()
        .map(|version| ("PYENV_VERSION", version))
        .into_iter()
        .collect();
    let found = super::tools::ask(
        &tools[0],
        &[
            "-c",
            "import sys; print(sys.executable); print(sys.base_prefix)",
        ],
        super::tools::installation(&tools[0]).into_iter().collect(),
        &env,
        containment,
    );
    let mut lines = found.as_deref().unwrap_or_default().lines();
    match (lines.next(), lines.next()) {
        (Some(executable), Some(prefix)) if Path::new(executable).is_absolute() => {
            super::tools::toolchain(
                vec![PathBuf::from(executable)],
                vec![PathBuf::from(prefix)],
                Vec::new(),
                containment,
            )
        }
        _ => super::tools::toolchain(tools, Vec::new(), Vec::new(), containment),
    }
}

/// Syntax errors are compile errors, as on LeetCode; the message is the
/// error in the user's file alone, named as the user named it, without a
/// frame of this check's own. Isolated (`-I`): neither the build directory
/// nor the user's environment is on its path.
const CHECK: &[&str] = &[
    "@TOOL0@",
    "-I",
    "-B",
    "-c",
    concat!(
        "import sys, traceback\n",
        "try:\n",
        "    compile(open(sys.argv[1], encoding='utf-8').read(), sys.argv[2], 'exec')\n",
        "except (SyntaxError, ValueError) as e:\n",
        "    sys.stderr.write(''.join(traceback.format_exception_only(type(e), e)))\n",
        "    sys.exit(1)\n",
    ),
    SOURCE,
    "@NAME@",
];

/// The build's copy of the user's file, whatever the user called it: Python
/// puts a script's directory first on its path, so a file named `re.py` or
/// `tokenize.py` there would be imported in place of the standard module
/// by everything that imports it (the driver's preloaded modules, the
/// standard library itself). No judge runs a file under its author's name;
/// this one shadows nothing. Messages and stack traces name the user's
/// file: the syntax check and the driver compile it under that name, and a
/// program's crash is placed in it by [`super::language::SourceName`].
const SOURCE: &str = "solution.py";

pub(crate) static SPEC: Spec = Spec {
    id: "python",
    aliases: &["python3", "py"],
    name: "Python 3",
    extensions: &["py"],
    tools: &[Tool::new("python3", "python3", &["--version"])],
    tested: "CPython 3.11",
    resolve,
    flags: &[],
    flags_why: "a syntax error is CE, as on LeetCode",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::Hash,
        program: r#"__name__\s*==\s*['"]__main__['"]"#,
        function: r"(?s)\bclass\s+Solution\b.*\bdef\s+solveSudoku\b",
        script: true,
    },
    // argv[0] is the interpreter's own path: CPython finds its standard
    // library from it, and a bare name would find another Python on PATH.
    program: Build {
        files: &[(SOURCE, "@SOURCE@")],
        source_as: SOURCE,
        compile: CHECK,
        shown: false,
        run: Run::Exec(&["@TOOL0@", "-B", "@DIR@/solution.py"]),
    },
    function: Build {
        files: &[(SOURCE, "@SOURCE@"), ("driver.py", "@DRIVER@")],
        source_as: SOURCE,
        compile: CHECK,
        shown: false,
        run: Run::Exec(&[
            "@TOOL0@",
            "-B",
            "@DIR@/driver.py",
            "@DIR@/solution.py",
            "@NAME@",
        ]),
    },
    entry: None,
    prepare: None,
    driver: include_str!("../drivers/driver.py"),
    compile_env: &[],
    native: false,
    runtime_kb: 0,
    causes: &[Cause {
        pattern: r"(?s)Traceback \(most recent call last\):.*\n\s*(?P<what>[^\n]*\S)\s*\z",
        says: "raised $what",
    }],
    frame: Some(Frame {
        pattern: r#"(?m)^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)"#,
        innermost_last: true,
    }),
    out_of_memory: &["MemoryError"],
    leetcode: LeetCode {
        method: "class Solution with solveSudoku",
        template: "class Solution:\n    def solveSudoku(self, board: List[List[str]]) -> None:\n        \"\"\"\n        Do not return anything, modify board in-place instead.\n        \"\"\"\n        ",
        gets: "`from typing import *` and the modules LeetCode preloads (`collections`, `heapq`, `itertools`, `functools`, `math`, ...); a fresh `Solution()` per board",
        version: None,
    },
    marks: r"(?m)^\s*def\s+\w+\s*\([^)]*\)\s*(->[^:]*)?:\s*$|^\s*from\s+\w+\s+import\b",
    // sys.stdout into a pipe is block-buffered (8 KB); the judge sets no PYTHONUNBUFFERED.
    stdout: Stdout::Buffered {
        flush: "print(..., flush=True)",
    },
    self_test: "print(input())\n",
    starter: StarterFiles {
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
};
