//! Java: LeetCode's `class Solution` with `solveSudoku(char[][] board)`,
//! and programs whose public class has `main`.

use super::language::Tool;
use super::language::{Build, Cause, Comments, Detect, Frame, LeetCode, Run, Spec, StarterFiles};
use crate::reason::Stdout;

/// The class a program's file declares public (its entry point), else the
/// first class.
pub(super) fn main_class(source: &str, _name: &str) -> Option<String> {
    super::language::regex(r"\bpublic\s+(?:final\s+)?class\s+(\w+)")
        .captures(source)
        .or_else(|| super::language::regex(r"\bclass\s+(\w+)").captures(source))
        .map(|c| c[1].to_string())
}

pub(crate) static SPEC: Spec = Spec {
    id: "java",
    aliases: &[],
    name: "Java",
    extensions: &["java"],
    tools: &[
        Tool::new("javac", "default-jdk-headless", &["-version"]),
        Tool::new("java", "default-jdk-headless", &["-version"]),
    ],
    tested: "OpenJDK 17",
    resolve: super::tools::resolve_links,
    flags: &["-encoding", "UTF-8"],
    flags_why: "then `java -Xmx<memory limit> -Xss<a quarter of it, 8 to 64 MB> -XX:+UseSerialGC`",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bstatic\s+void\s+main\s*\(",
        function: r"\bsolveSudoku\s*\(",
        script: false,
    },
    // A public class must live in a file of its name.
    program: Build {
        files: &[("@CLASS@.java", "@SOURCE@")],
        source_as: "@CLASS@.java",
        compile: &["@TOOL0@", "@FLAGS@", "-d", ".", "@CLASS@.java"],
        shown: true,
        run: Run::Jvm {
            java: "@TOOL1@",
            classpath: &["@DIR@"],
            class: "@CLASS@",
        },
    },
    // `import java.util.*;` on the submission's first line keeps its line
    // numbers.
    function: Build {
        files: &[
            ("Solution.java", "import java.util.*; @SOURCE@"),
            ("SudokuJudgeDriver.java", "@DRIVER@"),
        ],
        source_as: "Solution.java",
        compile: &[
            "@TOOL0@",
            "@FLAGS@",
            "-d",
            ".",
            "Solution.java",
            "SudokuJudgeDriver.java",
        ],
        shown: true,
        run: Run::Jvm {
            java: "@TOOL1@",
            classpath: &["@DIR@"],
            class: "SudokuJudgeDriver",
        },
    },
    entry: Some(main_class),
    prepare: None,
    driver: include_str!("../drivers/driver.java"),
    compile_env: &[],
    native: false,
    runtime_kb: 0,
    // The JVM's uncaught exception, its stack frame (`at
    // Solution.solveSudoku(Solution.java:5)`) and its words for running
    // out of heap, for every language that runs on it (Kotlin, Scala).
    causes: &[Cause {
        pattern: r#"(?m)^Exception in thread "[^"]*" (?P<what>.*)$"#,
        says: "threw $what",
    }],
    frame: Some(Frame {
        pattern: r"(?m)^\s*at [^\s(]+\((?P<file>[^:()]+):(?P<line>\d+)\)",
        innermost_last: false,
    }),
    out_of_memory: &["java.lang.OutOfMemoryError"],
    leetcode: LeetCode {
        method: "class Solution with solveSudoku",
        template: "class Solution {\n    public void solveSudoku(char[][] board) {\n        \n    }\n}",
        gets: "`import java.util.*;`; a fresh `Solution` per board",
        version: None,
    },
    // Java and C# share `public class Solution`, `char[][]` and most
    // statements: each is told by what is its own (see csharp.rs).
    marks: r"(?m)\bboolean\b|\bSystem\.out\.|^\s*import\s+java\.|\bString\s*\[\]|\bsolveSudoku\s*\(\s*char\s*\[\]\s*\[\]",
    // System.out flushes at every println (Kotlin's and Scala's println are its).
    stdout: Stdout::Lines {
        own_buffer: "a PrintWriter, a BufferedWriter or a StringBuilder printed at the end",
    },
    self_test: "import java.util.Scanner;\npublic class Main { public static void main(String[] a) { System.out.println(new Scanner(System.in).nextLine()); } }\n",
    starter: StarterFiles {
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
};
