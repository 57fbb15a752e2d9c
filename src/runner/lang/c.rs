//! C: AcWing's and POJ's C, and LeetCode's `void solveSudoku(char** board,
//! int boardSize, int* boardColSize)`.

use super::language::{Build, Cause, Comments, Detect, LeetCode, Run, Spec, StarterFiles, Tool};
use crate::reason::Stdout;

/// The headers LeetCode includes for C ("most standard library headers"),
/// and uthash where it is installed, then the submission with its own line
/// numbers, then the driver.
const LEETCODE_FILE: &str = "#include <assert.h>\n#include <ctype.h>\n#include <limits.h>\n\
#include <math.h>\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\
#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
#if defined(__has_include)\n#if __has_include(<uthash.h>)\n#include <uthash.h>\n#endif\n#endif\n\
#line 1 \"@NAME@\"\n@SOURCE@\n@DRIVER@";

pub(crate) static SPEC: Spec = Spec {
    id: "c",
    aliases: &[],
    name: "C",
    extensions: &["c"],
    tools: &[Tool {
        command: "gcc",
        package: "gcc",
        version_args: &["--version"],
        alternatives: &["clang"],
        versioned: true,
    }],
    tested: "gcc 12.2",
    resolve: super::tools::resolve_compiler,
    flags: &["-O2", "-DONLINE_JUDGE"],
    flags_why: "AcWing's and POJ's flags (gcc's default standard, gnu17), and `-lm`",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bmain\s*\(",
        function: r"\bsolveSudoku\s*\(",
        script: false,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-o", "main", "@NAME@", "-lm"],
        shown: true,
        run: Run::Exec(&["@DIR@/main"]),
    },
    function: Build {
        files: &[("main.c", LEETCODE_FILE)],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-o", "main", "main.c", "-lm"],
        shown: true,
        run: Run::Exec(&["@DIR@/main"]),
    },
    entry: None,
    prepare: None,
    driver: include_str!("../drivers/driver.c"),
    compile_env: &[],
    native: true,
    runtime_kb: 0,
    causes: &[Cause {
        pattern: r"(?m)^.*?: (?P<file>[^:\s]+):(?P<line>\d+): [^:]*: Assertion (?P<what>.*) failed\.$",
        says: "assertion $what failed at $file:$line",
    }],
    frame: None,
    out_of_memory: &[],
    leetcode: LeetCode {
        method: "solveSudoku",
        template: "void solveSudoku(char** board, int boardSize, int* boardColSize) {\n    \n}",
        gets: "the standard headers (`stdio.h`, `stdlib.h`, `string.h`, `stdbool.h`, `math.h`, ...) and `uthash.h` where installed; `char** board` of 9 rows, `boardSize` 9, `boardColSize` nine 9s; globals keep their values from board to board, as on LeetCode",
        version: None,
    },
    marks: r"(?m)^\s*#include\s*<std(io|lib)\.h>",
    // C's stdio holds what is written into a pipe until its buffer fills.
    stdout: Stdout::Buffered { flush: "fflush(stdout)" },
    self_test: "#include <stdio.h>\nint main(void) { char line[128]; if (fgets(line, sizeof line, stdin)) fputs(line, stdout); return 0; }\n",
    starter: StarterFiles {
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
};
