//! Scala on the JVM: LeetCode's `object Solution` with `def
//! solveSudoku(board: Array[Array[Char]]): Unit`, and programs.

use super::java;
use super::language::{Build, Comments, Detect, LeetCode, Run, Spec, StarterFiles, Tool};

/// The object a program starts from: the one that `extends App`, else the
/// last one opened before the first `def main`.
fn main_object(source: &str, _name: &str) -> Option<String> {
    let source = &super::language::without_comments(Comments::CLike, source);
    if let Some(found) =
        super::language::regex(r"\bobject\s+(\w+)\s+extends\s+App\b").captures(source)
    {
        return Some(found[1].to_string());
    }
    let main = super::language::regex(r"\bdef\s+main\s*\(")
        .find(source)?
        .start();
    super::language::regex(r"\bobject\s+(\w+)")
        .captures_iter(&source[..main])
        .last()
        .map(|found| found[1].to_string())
}

pub(crate) static SPEC: Spec = Spec {
    id: "scala",
    aliases: &[],
    name: "Scala",
    extensions: &["scala"],
    tools: &[
        Tool::new("scalac", "scala", &["-version"]),
        Tool::new("java", "default-jre-headless", &["-version"]),
    ],
    tested: "Scala 2.11, OpenJDK 17",
    flags: &[],
    flags_why: "its defaults; run as Java is, with the Scala library",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bdef\s+main\s*\(|\bextends\s+App\b",
        function: r"\bdef\s+solveSudoku\s*\(",
        script: false,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-d", ".", "@NAME@"],
        shown: true,
        run: Run::Jvm {
            java: "@TOOL1@",
            classpath: &["@DIR@", "@HOME0@/lib/scala-library.jar"],
            class: "@CLASS@",
        },
    },
    function: Build {
        files: &[("@NAME@", "@SOURCE@"), ("SudokuJudgeDriver.scala", "@DRIVER@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-d", ".", "@NAME@", "SudokuJudgeDriver.scala"],
        shown: true,
        run: Run::Jvm {
            java: "@TOOL1@",
            classpath: &["@DIR@", "@HOME0@/lib/scala-library.jar"],
            class: "SudokuJudgeDriver",
        },
    },
    entry: Some(main_object),
    prepare: None,
    driver: include_str!("../drivers/driver.scala"),
    compile_env: &[],
    leetcode: LeetCode {
        method: "object Solution with solveSudoku",
        template: "object Solution {\n    def solveSudoku(board: Array[Array[Char]]): Unit = {\n        \n    }\n}",
        gets: "nothing added; `object Solution` is one object, as on LeetCode, so what it keeps in its fields carries over from board to board",
        version: Some("Scala 3.3"),
    },
    marks: "",
    self_test: "object Main {\n  def main(args: Array[String]): Unit = println(scala.io.StdIn.readLine())\n}\n",
    starter: StarterFiles {
        leetcode_file: "Solution.scala",
        program_file: "Main.scala",
        leetcode_instead: None,
        program: r#"object Main {
  // Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
  // As written it returns the puzzle unchanged, which is a wrong answer.
  def solve(puzzle: String): String = puzzle

  def main(args: Array[String]): Unit = {
    val out = new StringBuilder
    var line = scala.io.StdIn.readLine()
    while (line != null && line.trim != "end") {
      if (line.trim.nonEmpty) {
        out.append(solve(line.trim)).append('\n')
      }
      line = scala.io.StdIn.readLine()
    }
    print(out)
  }
}
"#,
    },
    // Run on the JVM as Java is: its tools resolved, its memory counted
    // and its crashes read as Java's.
    ..java::SPEC
};
