//! A LeetCode file as people keep it on their own machine: the class
//! LeetCode judges, often with a local test harness beside it (a `main`
//! that builds a board and prints the answer, a Python `__main__` block).
//! LeetCode is given the solution alone. LeetCode editor extensions mark what
//! they submit with `@lc code=start` and `@lc code=end`; without the marks
//! the file's own `main` is found and left out, as a user would leave it
//! out when pasting.
//!
//! What is left out is blanked, not removed, so the compiler's line and
//! column numbers stay those of the user's file.

use regex::bytes::Regex;

use super::language::{Comments, Language};

/// The marks LeetCode editor extensions write around the submitted code.
const START: &str = "@lc code=start";
const END: &str = "@lc code=end";

/// Languages whose LeetCode build has a `main` of its own, so a file
/// pasted with another one is a compile error there.
const SECOND_MAIN_IS_CE: &[&str] = &["c", "cpp", "go", "java", "rust", "csharp"];

/// The part of a LeetCode file that LeetCode is given, and what the report
/// should say of what was left out.
pub(crate) struct Submitted {
    pub(crate) source: String,
    pub(crate) notes: Vec<String>,
}

/// `source`, a LeetCode-style file that may carry a local harness, as
/// LeetCode would be given it: between the `@lc` marks when it has them,
/// and without its own `main`. `name` is the file's name, for the notes.
pub(crate) fn leetcode_part(language: Language, source: &str, name: &str) -> Submitted {
    let mut notes = Vec::new();
    let mut text = source.as_bytes().to_vec();
    if let Some((first, last)) = marked(source) {
        let line = |at: usize| text[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let (from, to) = (line(first), line(last).saturating_sub(1).max(line(first)));
        blank(&mut text, 0, first);
        blank(&mut text, last, source.len());
        notes.push(format!(
            "{name}: judged as LeetCode would be given it, lines {from}–{to}, between \
             `@lc code=start` and `@lc code=end`"
        ));
    }
    let spec = language.spec();
    let (program, _) = super::language::readings(language, &String::from_utf8_lossy(&text));
    if program && !spec.detect.script && matches!(spec.detect.comments, Comments::CLike) {
        if let Some((from, to)) = without_main(language, &mut text) {
            let mut note = format!(
                "{name}: its own main (lines {from}–{to}), a local test harness, is left out, as \
                 LeetCode is given the solution alone"
            );
            if SECOND_MAIN_IS_CE.contains(&spec.id) {
                note.push_str(
                    "; pasted whole, LeetCode would say Compile Error (a second main beside \
                     its own): paste the solution alone, or mark it with `// @lc code=start` and \
                     `// @lc code=end`",
                );
            }
            notes.push(note);
        }
    } else if spec.id == "php" {
        if let Some((from, to)) = without_php_statements(&mut text) {
            notes.push(format!(
                "{name}: its code after the class (lines {from}–{to}), a local test harness, is \
                 left out, as LeetCode is given the solution alone"
            ));
        }
    } else if program && spec.id == "python" {
        notes.push(format!(
            "{name}: its `if __name__ == \"__main__\":` block, a local test harness, is not \
             run: the driver loads the file as a module and calls the class"
        ));
    }
    Submitted {
        source: String::from_utf8(text).unwrap_or_else(|_| source.to_string()),
        notes,
    }
}

/// Where the marked code starts (the line after `@lc code=start`) and
/// where it ends (the start of the line holding `@lc code=end`).
fn marked(text: &str) -> Option<(usize, usize)> {
    let start = text.find(START)?;
    let end = start + text[start..].find(END)?;
    let after_start = text[start..]
        .find('\n')
        .map_or(text.len(), |at| start + at + 1);
    let end_line = text[..end].rfind('\n').map_or(0, |at| at + 1);
    (after_start <= end_line).then_some((after_start, end_line))
}

/// Blanks `text[from..to]`: every byte but a newline becomes a space.
fn blank(text: &mut [u8], from: usize, to: usize) {
    for b in &mut text[from..to] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// `text` with what is not code blanked, for a C-like language: comments,
/// string and character literals, and preprocessor lines. Positions are
/// the text's own.
fn code_of(text: &[u8]) -> Vec<u8> {
    let mut code = text.to_vec();
    let mut i = 0;
    let mut line_start = true;
    while i < text.len() {
        let b = text[i];
        let rest = &text[i..];
        let end = if line_start && b == b'#' && rest.get(1).is_some_and(u8::is_ascii_alphabetic) {
            // A preprocessor line (with its continuations).
            let mut j = i;
            while j < text.len() && !(text[j] == b'\n' && text[j - 1] != b'\\') {
                j += 1;
            }
            Some(j)
        } else if rest.starts_with(b"//") {
            Some(i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len()))
        } else if rest.starts_with(b"/*") {
            Some(
                rest.windows(2)
                    .skip(2)
                    .position(|w| w == b"*/")
                    .map_or(text.len(), |at| i + at + 4),
            )
        } else if b == b'"' || b == b'`' {
            // To the closing quote; a `"` string ends at its line's end at
            // the latest, a Go raw string may span lines.
            let mut j = i + 1;
            while j < text.len() && text[j] != b && !(b == b'"' && text[j] == b'\n') {
                j += if b == b'"' && text[j] == b'\\' { 2 } else { 1 };
            }
            Some((j + 1).min(text.len()))
        } else if b == b'\'' {
            // A character literal, short and on one line; a lone quote (a
            // Rust lifetime) is code.
            let close = if rest.get(1) == Some(&b'\\') {
                rest.iter().skip(2).take(10).position(|&c| c == b'\'')
            } else {
                rest.iter().skip(1).take(5).position(|&c| c == b'\'')
            };
            close
                .filter(|_| !rest[1..].starts_with(b"\n"))
                .map(|at| i + at + if rest.get(1) == Some(&b'\\') { 3 } else { 2 })
        } else {
            None
        };
        match end {
            Some(end) => {
                blank(&mut code, i, end);
                line_start = false;
                i = end;
            }
            None => {
                if b == b'\n' {
                    line_start = true;
                } else if !b.is_ascii_whitespace() {
                    line_start = false;
                }
                i += 1;
            }
        }
    }
    code
}

/// The `}` that closes the `{` at `open`.
fn closing(code: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in code.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Where the declaration holding `at` starts: after the last `;`, `{` or
/// `}` before it, past blanks.
fn declaration_start(code: &[u8], at: usize) -> usize {
    let mut start = code[..at]
        .iter()
        .rposition(|b| b";{}".contains(b))
        .map_or(0, |i| i + 1);
    while start < at && code[start].is_ascii_whitespace() {
        start += 1;
    }
    start
}

/// The `{` at depth 0 that opens the block holding `at`, if `at` is in one.
fn enclosing_top(code: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut top = None;
    for (i, &b) in code[..at].iter().enumerate() {
        match b {
            b'{' => {
                if depth == 0 {
                    top = Some(i);
                }
                depth += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    top = None;
                }
            }
            _ => {}
        }
    }
    top
}

/// Blanks the file's own entry point: a `main` function at the top level
/// (C, C++, Go, Rust, Kotlin), a `main` method in a class of its own,
/// which goes with its class (Java, C#, Scala), or one inside the class
/// LeetCode judges, which goes alone. The first lines and the last of what
/// was left out, counted from 1.
fn without_main(language: Language, text: &mut [u8]) -> Option<(usize, usize)> {
    let detect = &language.spec().detect;
    let code = code_of(text);
    let program = Regex::new(detect.program).ok()?;
    let solution = Regex::new(r"\bSolution\b").ok()?;
    for found in program.find_iter(&code) {
        let at = found.start();
        // The body: a `;` first makes a declaration, not a definition.
        let Some(open) = code[found.end()..]
            .iter()
            .position(|b| b"{;".contains(b))
            .map(|i| found.end() + i)
            .filter(|&i| code[i] == b'{')
        else {
            continue;
        };
        let close = closing(&code, open)?;
        let (from, to) = match enclosing_top(&code, at) {
            Some(top) => {
                let top_close = closing(&code, top)?;
                let header = declaration_start(&code, top);
                if solution.is_match(&code[header..top]) {
                    (declaration_start(&code, at), close)
                } else {
                    (header, top_close)
                }
            }
            None => (declaration_start(&code, at), close),
        };
        let line = |i: usize| text[..i].iter().filter(|&&b| b == b'\n').count() + 1;
        let lines = (line(from), line(to));
        blank(text, from, to + 1);
        return Some(lines);
    }
    None
}

/// Blanks the statements a PHP file runs at its top level after its
/// `class Solution` (a local harness: PHP has no `main` to tell it by),
/// keeping the declarations there (functions, classes, `use`, `const`). The
/// first line and the last of what was left out, counted from 1.
fn without_php_statements(text: &mut [u8]) -> Option<(usize, usize)> {
    let code = code_of(text);
    let class = Regex::new(r"\bclass\s+Solution\b").ok()?.find(&code)?;
    let open = class.end() + code[class.end()..].iter().position(|&b| b == b'{')?;
    let mut at = closing(&code, open)? + 1;
    let declaration = Regex::new(
        r"^(?:(?:abstract|final|readonly)\s+)*(?:function|class|interface|trait|enum|use|const|namespace|declare)\b",
    )
    .ok()?;
    let mut blanked: Option<(usize, usize)> = None;
    while at < code.len() {
        if code[at].is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if code[at..].starts_with(b"?>") {
            break;
        }
        // The item: to its `;` at depth 0, or to the `}` closing its first
        // block, whichever comes first.
        let mut depth = 0usize;
        let mut end = code.len();
        for (i, &b) in code.iter().enumerate().skip(at) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        if !declaration.is_match(&code[at..end]) {
            blank(text, at, end);
            let first = blanked.map_or(at, |(first, _)| first);
            blanked = Some((first, end));
        }
        at = end;
    }
    let (from, to) = blanked?;
    let line = |i: usize| text[..i].iter().filter(|&&b| b == b'\n').count() + 1;
    Some((line(from), line(to.saturating_sub(1))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(language: &str, source: &str) -> Submitted {
        leetcode_part(Language::find(language).unwrap(), source, "sol")
    }

    const CPP: &str = "#include <bits/stdc++.h>
using namespace std;
class Solution {
public:
    void solveSudoku(vector<vector<char>>& board) { /* } */ }
};
// a local harness: { }
int main() {
    vector<vector<char>> b(9, vector<char>(9, '}'));
    string s = \"{ not a brace\";
    Solution().solveSudoku(b);
    if (true) { cout << s << endl; }
    return 0;
}
";

    #[test]
    fn a_cpp_main_under_the_class_is_left_out_and_lines_are_kept() {
        let cut = cut("cpp", CPP);
        assert_eq!(cut.source.lines().count(), CPP.lines().count());
        assert!(!cut.source.contains("main"), "{}", cut.source);
        assert!(cut.source.contains("void solveSudoku"), "{}", cut.source);
        assert!(cut.source.contains("#include <bits/stdc++.h>"));
        assert!(cut.notes[0].contains("lines 8–14"), "{:?}", cut.notes);
        assert!(cut.notes[0].contains("Compile Error"), "{:?}", cut.notes);
    }

    #[test]
    fn the_lc_marks_say_what_is_submitted() {
        let marked = "#include <vector>\n// @lc code=start\nclass Solution {\npublic:\n    \
                      void solveSudoku(vector<vector<char>>& board) {}\n};\n// @lc \
                      code=end\nint main() { return 0; }\n";
        let cut = cut("cpp", marked);
        assert_eq!(cut.source.lines().count(), marked.lines().count());
        assert!(!cut.source.contains("main"), "{}", cut.source);
        assert!(!cut.source.contains("#include"), "{}", cut.source);
        assert!(cut.source.contains("class Solution"));
        assert_eq!(cut.notes.len(), 1, "{:?}", cut.notes);
        assert!(cut.notes[0].contains("lines 3–6"), "{:?}", cut.notes);
    }

    #[test]
    fn a_java_main_goes_with_its_own_class_or_alone_from_the_solution() {
        let own = "class Solution {\n    public void solveSudoku(char[][] board) {}\n}\n\
                   public class Main {\n    public static void main(String[] args) {\n        \
                   new Solution().solveSudoku(new char[9][9]);\n    }\n}\n";
        let cut_own = cut("java", own);
        assert!(!cut_own.source.contains("Main"), "{}", cut_own.source);
        assert!(cut_own.source.contains("class Solution"));
        let inside = "class Solution {\n    public void solveSudoku(char[][] board) {}\n    \
                      public static void main(String[] args) { }\n}\n";
        let cut_inside = cut("java", inside);
        assert!(!cut_inside.source.contains("main"), "{}", cut_inside.source);
        assert!(cut_inside.source.contains("class Solution {"));
        assert!(cut_inside.source.trim_end().ends_with('}'));
    }

    #[test]
    fn a_go_main_and_a_rust_main_are_left_out() {
        let go =
            "func solveSudoku(board [][]byte) {\n}\n\nfunc main() {\n\tb := \"}\"\n\t_ = b\n}\n";
        let cut_go = cut("go", go);
        assert!(!cut_go.source.contains("main"), "{}", cut_go.source);
        assert!(cut_go.source.contains("func solveSudoku"));
        let rust = "impl Solution {\n    pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {}\n}\n\
                    fn main() {\n    let c = '}';\n    let _ = c;\n}\n";
        let cut_rust = cut("rust", rust);
        assert!(!cut_rust.source.contains("main"), "{}", cut_rust.source);
        assert!(cut_rust.source.contains("impl Solution"));
    }

    #[test]
    fn a_c_main_after_a_prototype_is_left_out() {
        let c = "void solveSudoku(char** board, int boardSize, int* boardColSize) {}\n\
                 int main(void);\n\
                 int main(void) {\n    char s[] = \"}\";\n    return s[0] == 0;\n}\n";
        let cut = cut("c", c);
        assert!(cut.source.contains("int main(void);"), "{}", cut.source);
        assert!(!cut.source.contains("return"), "{}", cut.source);
        assert!(cut.source.contains("void solveSudoku"));
        assert!(cut.notes[0].contains("lines 3–6"), "{:?}", cut.notes);
    }

    #[test]
    fn php_statements_after_the_class_are_left_out_and_declarations_kept() {
        let php = "<?php\nclass Solution {\n    function solveSudoku(&$board) { helper(); }\n}\n\
                   function helper() { return 1; }\n$b = [];\nforeach ($b as $r) {\n    echo \"}\";\n}\n\
                   (new Solution())->solveSudoku($b);\n";
        let cut = cut("php", php);
        assert_eq!(cut.source.lines().count(), php.lines().count());
        assert!(cut.source.contains("function helper()"), "{}", cut.source);
        assert!(cut.source.contains("class Solution"), "{}", cut.source);
        assert!(!cut.source.contains("foreach"), "{}", cut.source);
        assert!(!cut.source.contains("new Solution"), "{}", cut.source);
        assert!(cut.notes[0].contains("lines 6–10"), "{:?}", cut.notes);
        // Nothing after the class: nothing said.
        assert!(self::cut("php", "<?php\nclass Solution {\n}\n")
            .notes
            .is_empty());
    }

    #[test]
    fn a_python_main_block_is_kept_but_said() {
        let py = "class Solution:\n    def solveSudoku(self, board):\n        pass\n\n\
                  if __name__ == \"__main__\":\n    print('hi')\n";
        let cut = cut("python", py);
        assert_eq!(cut.source, py);
        assert!(cut.notes[0].contains("is not run"), "{:?}", cut.notes);
    }
}
