//! Racket: LeetCode's `(define/contract (solve-sudoku board) ...)`, and
//! programs reading stdin.

use super::language::{Build, Cause, Comments, Detect, Frame, Interface, LeetCode, Run, Spec};
use super::language::{StarterFiles, Tool};
use crate::reason::Stdout;

/// LeetCode's Racket has no `#lang` line: it gets `#lang racket` with the
/// libraries LeetCode requires for it, on its first line, so its line
/// numbers stay.
fn prepare(source: &str, _name: &str, interface: Interface) -> String {
    if super::language::regex(r"(?m)^\s*#lang\s").is_match(source) {
        return source.to_string();
    }
    match interface {
        Interface::Function => format!(
            "#lang racket (require data/gvector data/queue data/order data/heap) \
             (provide solve-sudoku) {source}"
        ),
        Interface::Program => format!("#lang racket {source}"),
    }
}

pub(crate) static SPEC: Spec = Spec {
    id: "racket",
    aliases: &["rkt"],
    name: "Racket",
    extensions: &["rkt"],
    // `raco` is a launcher that starts `racket -N raco -l- raco/main.rkt`,
    // and has no version of its own to say: builds run `raco make` through
    // `racket` itself, so the one tool asked its version is the one that
    // compiles and runs, and a `[toolchain] racket = ...` sets both.
    tools: &[Tool::new("racket", "racket", &["--version"])],
    tested: "Racket 8.7 CS",
    resolve: super::tools::resolve_links,
    flags: &[],
    flags_why: "`raco make` first (as `racket -l- raco make`), so an unbound name or a syntax error is CE; then `racket`",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::Lisp,
        program: r"\b(?:read-line|current-input-port|in-lines|port->string|port->lines|read-string|read-char)\b|\(\s*read\s*\)",
        function: r"\(define(?:/contract)?\s+\(solve-sudoku\b",
        script: true,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "-l-", "raco", "make", "@FLAGS@", "@NAME@"],
        shown: true,
        run: Run::Exec(&["@TOOL0@", "@DIR@/@NAME@"]),
    },
    function: Build {
        files: &[("@NAME@", "@SOURCE@"), ("driver.rkt", "@DRIVER@")],
        source_as: "@NAME@",
        compile: &[
            "@TOOL0@",
            "-l-",
            "raco",
            "make",
            "@FLAGS@",
            "@NAME@",
            "driver.rkt",
        ],
        shown: true,
        run: Run::Exec(&["@TOOL0@", "@DIR@/driver.rkt", "@DIR@/@NAME@"]),
    },
    entry: None,
    prepare: Some(prepare),
    driver: include_str!("../drivers/driver.rkt"),
    compile_env: &[("PLTUSERHOME", "/tmp/racket")],
    native: false,
    runtime_kb: 160 << 10,
    causes: &[Cause {
        pattern: r"(?m)^(?P<what>\S[^\n]*)\n(?:[ \t][^\n]*\n)*?\s*context\.\.\.:",
        says: "raised $what",
    }],
    frame: Some(Frame {
        pattern: r"(?m)^\s+(?:at: |body of )?(?P<file>[^\s:]+):(?P<line>\d+):(?P<column>\d+)",
        innermost_last: false,
    }),
    out_of_memory: &["out of memory"],
    leetcode: LeetCode {
        method: "solve-sudoku",
        template: "(define/contract (solve-sudoku board)\n  (-> (listof (listof char?)) void?)\n  )",
        gets: "`#lang racket` with `data/gvector`, `data/queue`, `data/order` and `data/heap`; the board as a mutable vector of vectors of chars, as LeetCode's `(listof (listof char?))` cannot be changed in place (use `(vectorof (vectorof char?))` in the contract), or a solved board returned",
        version: Some("Racket 8.15"),
    },
    marks: "",
    // the output port is block-buffered when it is not a terminal.
    stdout: Stdout::Buffered {
        flush: "(flush-output)",
    },
    self_test: "#lang racket\n(displayln (read-line))\n",
    starter: StarterFiles {
        leetcode_file: "solution.rkt",
        program_file: "main.rkt",
        leetcode_instead: Some((
            r#"; LeetCode's template, with a body and the contract the board needs here:
; the board is a mutable vector of vectors of chars, changed in place
; (LeetCode's (listof (listof char?)) cannot be changed).
(define/contract (solve-sudoku board)
  (-> (vectorof (vectorof char?)) void?)
  (void))
"#,
            "LeetCode's Racket template has an empty body, which does not compile, and a \
             contract on lists, which a board changed in place is not",
        )),
        // `racket/base`: all of `racket` takes most of a second to load,
        // charged to every case.
        program: r#"#lang racket/base
(require racket/string)

;; Fills the empty cells (.) of one puzzle: 81 characters, row by row.
;; As written it returns the puzzle unchanged, which is a wrong answer.
(define (solve puzzle)
  puzzle)

(let loop ([line (read-line)])
  (unless (eof-object? line)
    (let ([puzzle (string-trim line)])
      (unless (equal? puzzle "end")
        (unless (string=? puzzle "")
          (displayln (solve puzzle)))
        (loop (read-line))))))
"#,
    },
};
