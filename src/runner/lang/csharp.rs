//! C# on Mono: LeetCode's `public class Solution` with `public void
//! SolveSudoku(char[][] board)`, and programs with `static void Main`.

use super::language::{Build, Cause, Comments, Detect, Frame, Interface, LeetCode, Run, Spec};
use super::language::{StarterFiles, Tool};
use crate::reason::Stdout;

/// LeetCode's C# files use the common namespaces without `using` them:
/// they come first, on the file's first line, so its line numbers stay (a
/// `using` the file repeats is only a warning).
fn prepare(source: &str, _name: &str, interface: Interface) -> String {
    match interface {
        Interface::Function => format!(
            "using System; using System.Collections.Generic; using System.Linq; \
             using System.Text; {source}"
        ),
        Interface::Program => source.to_string(),
    }
}

pub(crate) static SPEC: Spec = Spec {
    id: "csharp",
    aliases: &["c#", "cs"],
    name: "C#",
    extensions: &["cs"],
    tools: &[
        Tool::new("mcs", "mono-mcs", &["--version"]),
        Tool::new("mono", "mono-runtime", &["--version"]),
    ],
    tested: "Mono 6.8 (mcs)",
    resolve: super::tools::resolve_links,
    flags: &["-optimize+", "-debug"],
    flags_why: "optimised, then `mono --debug --optimize=-inline`, so a crash names the line of the user's file (Mono's mcs says C# 7 but rejects some of it, local functions and patterns in `case` labels, and everything newer, switch expressions, `is not`, `a[^1]`, `new()`; LeetCode has .NET's latest: set Roslyn's `csc` as the C# compiler for those)",
    profiles: &[],
    needs: &super::needs::CSHARP,
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bstatic\s+(?:async\s+)?(?:void|int|Task(?:<int>)?)\s+Main\s*\(",
        function: r"\bSolveSudoku\s*\(",
        script: false,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-out:main.exe", "@NAME@"],
        shown: true,
        run: Run::Exec(&["@TOOL1@", "--debug", "--optimize=-inline", "@DIR@/main.exe"]),
    },
    function: Build {
        files: &[("@NAME@", "@SOURCE@"), ("driver.cs", "@DRIVER@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-out:main.exe", "@NAME@", "driver.cs"],
        shown: true,
        run: Run::Exec(&["@TOOL1@", "--debug", "--optimize=-inline", "@DIR@/main.exe"]),
    },
    entry: None,
    prepare: Some(prepare),
    driver: include_str!("../drivers/driver.cs"),
    compile_env: &[],
    native: false,
    runtime_kb: 0,
    causes: &[
        Cause {
            pattern: r"(?m)^Unhandled Exception:\s*\n(?P<what>\S.*)$",
            says: "threw $what",
        },
        Cause {
            pattern: r"(?m)^\[ERROR\] FATAL UNHANDLED EXCEPTION: (?P<what>.*)$",
            says: "threw $what",
        },
    ],
    frame: Some(Frame {
        pattern: r"(?m)^\s+at .* in (?P<file>[^\s:]+):(?P<line>\d+)",
        innermost_last: false,
    }),
    out_of_memory: &["System.OutOfMemoryException"],
    leetcode: LeetCode {
        method: "SolveSudoku",
        template: "public class Solution {\n    public void SolveSudoku(char[][] board) {\n        \n    }\n}",
        gets: "`using System;`, `System.Collections.Generic`, `System.Linq` and `System.Text`; a fresh `Solution` per board",
        version: Some("C# 13 on .NET"),
    },
    // Java and C# share `public class Solution`, `char[][]` and most
    // statements: each is told by what is its own. Java's `boolean`,
    // `System.out`, `String[]` and camelCase `solveSudoku(char[][]`; C#'s
    // `using System`, `Console`, `foreach`, `.Length`, `bool` and `string`
    // (LeetCode's C# files have no `using`). A file only reaches the C#
    // compiler with C#'s `SolveSudoku` or `Main`, so those tell nothing.
    marks: r"(?m)^\s*using\s+System\b|\bConsole\.|\bforeach\s*\(|\.(?:Length|Count)\b|\bbool\b|\bstring\b",
    // Console.Out flushes every write (AutoFlush).
    stdout: Stdout::Lines {
        own_buffer: "a StreamWriter or a StringBuilder printed at the end",
    },
    self_test: "public class Program { public static void Main() { System.Console.WriteLine(System.Console.ReadLine()); } }\n",
    starter: StarterFiles {
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
};
