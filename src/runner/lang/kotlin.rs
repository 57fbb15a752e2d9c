//! Kotlin on the JVM: LeetCode's `class Solution` with `fun
//! solveSudoku(board: Array<CharArray>): Unit`, and programs with `fun main`.

use super::java;
use super::language::{Build, Comments, Detect, LeetCode, Run, Spec, StarterFiles, Tool};

/// The class of a file's top-level functions: `@file:JvmName`, else the
/// file's name as Kotlin makes it (`ac_program.kt` holds `Ac_programKt`).
fn file_class(source: &str, name: &str) -> Option<String> {
    if let Some(found) =
        super::language::regex(r#"@file\s*:\s*JvmName\(\s*"([^"]+)"\s*\)"#).captures(source)
    {
        return Some(found[1].to_string());
    }
    let stem = name.strip_suffix(".kt").unwrap_or(name);
    let mut class: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if let Some(first) = class.chars().next() {
        class.replace_range(..first.len_utf8(), &first.to_uppercase().to_string());
    }
    Some(format!("{class}Kt"))
}

pub(crate) static SPEC: Spec = Spec {
    id: "kotlin",
    aliases: &["kt"],
    name: "Kotlin",
    extensions: &["kt"],
    tools: &[
        Tool::new("kotlinc", "kotlin", &["-version"]),
        Tool::new("java", "default-jre-headless", &["-version"]),
    ],
    tested: "kotlinc 1.3, OpenJDK 17",
    flags: &[],
    flags_why: "its defaults; run as Java is, with the Kotlin standard library",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bfun\s+main\s*\(",
        function: r"\bfun\s+solveSudoku\s*\(",
        script: false,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-d", ".", "@NAME@"],
        shown: true,
        run: Run::Jvm {
            java: "@TOOL1@",
            classpath: &["@DIR@", "@HOME0@/lib/kotlin-stdlib.jar"],
            class: "@CLASS@",
        },
    },
    function: Build {
        files: &[("@NAME@", "@SOURCE@"), ("SudokuJudgeDriver.kt", "@DRIVER@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-d", ".", "@NAME@", "SudokuJudgeDriver.kt"],
        shown: true,
        run: Run::Jvm {
            java: "@TOOL1@",
            classpath: &["@DIR@", "@HOME0@/lib/kotlin-stdlib.jar"],
            class: "SudokuJudgeDriverKt",
        },
    },
    entry: Some(file_class),
    prepare: None,
    driver: include_str!("../drivers/driver.kt"),
    compile_env: &[],
    leetcode: LeetCode {
        method: "class Solution with solveSudoku",
        template: "class Solution {\n    fun solveSudoku(board: Array<CharArray>): Unit {\n        \n    }\n}",
        gets: "a fresh `Solution` per board",
        version: Some("Kotlin 1.9"),
    },
    marks: "",
    self_test: "fun main() {\n    println(readLine())\n}\n",
    starter: StarterFiles {
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
    // Run on the JVM as Java is: its tools resolved, its memory counted
    // and its crashes read as Java's.
    ..java::SPEC
};
