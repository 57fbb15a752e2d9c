//! Go: LeetCode's `func solveSudoku(board [][]byte)`, and programs.

use super::language::{Build, Cause, Comments, Detect, Frame, Interface, LeetCode, Run, Spec};
use super::language::{StarterFiles, Tool};
use crate::reason::Stdout;

/// Standard packages LeetCode's Go files use without importing them, with
/// a name each exports (so an import the file turns out not to use still
/// compiles).
const AUTO_IMPORTS: [(&str, &str, &str); 16] = [
    ("bits", "math/bits", "OnesCount"),
    ("bufio", "bufio", "NewReader"),
    ("bytes", "bytes", "Equal"),
    ("errors", "errors", "New"),
    ("fmt", "fmt", "Sprint"),
    ("heap", "container/heap", "Init"),
    ("list", "container/list", "New"),
    ("math", "math", "Abs"),
    ("os", "os", "Exit"),
    ("rand", "math/rand", "Intn"),
    ("sort", "sort", "Ints"),
    ("strconv", "strconv", "Itoa"),
    ("strings", "strings", "Split"),
    ("time", "time", "Now"),
    ("unicode", "unicode", "IsDigit"),
    ("utf8", "unicode/utf8", "RuneLen"),
];

/// A LeetCode file has no package clause and imports nothing: it gets
/// `package main` and the standard packages it names, before a `//line`
/// directive that keeps its own line numbers. A program keeps its own.
fn prepare(source: &str, name: &str, interface: Interface) -> String {
    let has_package = super::language::regex(r"(?m)^\s*package\s+\w+").is_match(source);
    let mut head = String::new();
    if interface == Interface::Function && !has_package {
        head.push_str("package main\n");
        let mut uses = String::new();
        for (package, path, export) in AUTO_IMPORTS {
            let used = super::language::regex_of(&format!(r"\b{package}\.\w")).is_match(source);
            if used && !source.contains(&format!("\"{path}\"")) {
                head.push_str(&format!("import \"{path}\"\n"));
                uses.push_str(&format!("var _ = {package}.{export}\n"));
            }
        }
        head.push_str(&uses);
    }
    format!("{head}//line {name}:1:1\n{source}")
}

pub(crate) static SPEC: Spec = Spec {
    id: "go",
    aliases: &["golang"],
    name: "Go",
    extensions: &["go"],
    tools: &[Tool::new("go", "golang-go", &["version"])],
    tested: "Go 1.19",
    resolve: super::tools::resolve_links,
    flags: &[],
    flags_why: "`go build` with its defaults, as LeetCode and Codeforces build",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bfunc\s+main\s*\(",
        function: r"\bfunc\s+solveSudoku\s*\(",
        script: false,
    },
    // Built under names of its own: a user's file named `x_test.go` or
    // `x_windows.go` would be left out of the build.
    program: Build {
        files: &[("main.go", "@SOURCE@")],
        source_as: "main.go",
        compile: &["@TOOL0@", "build", "@FLAGS@", "-o", "main", "main.go"],
        shown: true,
        run: Run::Exec(&["@DIR@/main"]),
    },
    function: Build {
        files: &[("solution.go", "@SOURCE@"), ("driver.go", "@DRIVER@")],
        source_as: "solution.go",
        compile: &[
            "@TOOL0@",
            "build",
            "@FLAGS@",
            "-o",
            "main",
            "solution.go",
            "driver.go",
        ],
        shown: true,
        run: Run::Exec(&["@DIR@/main"]),
    },
    entry: None,
    prepare: Some(prepare),
    driver: include_str!("../drivers/driver.go"),
    // No module, no cgo, and the build cache in the compiler's scratch.
    compile_env: &[
        ("GO111MODULE", "off"),
        ("CGO_ENABLED", "0"),
        ("GOCACHE", "/tmp/go-build"),
        ("GOPATH", "/tmp/go"),
        ("GOTOOLCHAIN", "local"),
    ],
    native: false,
    runtime_kb: 0,
    causes: &[
        Cause {
            pattern: r"(?m)^panic: (?P<what>.*?)(?: \[recovered\])?$",
            says: "panic: $what",
        },
        Cause {
            pattern: r"(?m)^fatal error: (?P<what>.*)$",
            says: "fatal error: $what",
        },
    ],
    frame: Some(Frame {
        pattern: r"(?m)^\t(?P<file>[^\s:]+):(?P<line>\d+)",
        innermost_last: false,
    }),
    out_of_memory: &["fatal error: runtime: out of memory"],
    leetcode: LeetCode {
        method: "solveSudoku",
        template: "func solveSudoku(board [][]byte)  {\n    \n}",
        gets: "`package main` and the standard packages it uses without importing them (`sort`, `math`, `strings`, `strconv`, `container/heap`, ...); globals keep their values from board to board, as on LeetCode",
        version: Some("Go 1.23"),
    },
    marks: r"(?m)^package\s+main\b|\bfunc\s+\w+\s*\(",
    // os.Stdout is not buffered: every Print is a write.
    stdout: Stdout::Lines {
        own_buffer: "a bufio.Writer",
    },
    self_test: "package main\n\nimport (\n\t\"bufio\"\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tline, _ := bufio.NewReader(os.Stdin).ReadString('\\n')\n\tfmt.Print(line)\n}\n",
    starter: StarterFiles {
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
};
